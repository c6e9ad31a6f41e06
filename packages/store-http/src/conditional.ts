import { ConflictError, type SetOptions, UnsupportedOperationError } from "@z/store-core";

/**
 * The request headers of a conditional write: `If-Match: <etag>` for `ifMatch` (the version
 * is the ETag exactly as the server sent it, quotes included) and `If-None-Match: *` for
 * `ifNoneMatch`.
 */
export function conditionHeaders(options: SetOptions | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  if (options?.ifMatch !== undefined) headers["If-Match"] = options.ifMatch;
  if (options?.ifNoneMatch === "*") headers["If-None-Match"] = "*";
  return headers;
}

/** Whether a write carries a condition. */
export function isConditional(options: SetOptions | undefined): boolean {
  return options?.ifMatch !== undefined || options?.ifNoneMatch !== undefined;
}

/**
 * The error for a conditional write's answer, or undefined when it did not fail its condition:
 * 412 (Precondition Failed), or 409 (S3's answer to conditional writes racing each other).
 */
export function conditionFailure(
  key: string,
  status: number,
  options: SetOptions | undefined,
): ConflictError | undefined {
  if (!isConditional(options) || (status !== 412 && status !== 409)) return undefined;
  return new ConflictError(
    key,
    options?.ifNoneMatch === "*"
      ? "the key exists (If-None-Match: *)"
      : `the server's ETag is no longer ${options?.ifMatch} (HTTP ${status})`,
  );
}

/**
 * The version of a GET answer: its ETag, which must be strong (a weak `W/` ETag never
 * satisfies `If-Match`, so every conditional write would fail).
 * @throws UnsupportedOperationError when the server sends no ETag, or a weak one
 */
export function versionOf(key: string, response: Response): string {
  const etag = response.headers.get("etag");
  if (etag === null || etag.startsWith("W/")) {
    throw new UnsupportedOperationError(
      `GET of ${JSON.stringify(key)} came back ${etag === null ? "without an ETag" : `with a weak ETag ${etag}`}: ` +
        "this server cannot do conditional writes; create the HttpStore without conditionalWrites",
    );
  }
  return etag;
}
