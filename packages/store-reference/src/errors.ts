import { StoreError } from "@z/store-core";

/**
 * A kerchunk reference document that cannot be read: not JSON, an unknown version, a reference
 * that is neither inline data nor `[url]` / `[url, offset, length]`, a bad template or generator.
 * `where` names the place in the document (`refs["data/0.0"]`, `gen[1].dimensions.i`).
 * @category Errors
 */
export class InvalidReferenceError extends StoreError {
  override name = "InvalidReferenceError";
  constructor(
    /** Where in the reference document the problem is. */
    readonly where: string,
    /** What is wrong there. */
    readonly reason: string,
  ) {
    super(`Invalid kerchunk reference at ${where}: ${reason}`);
  }
}

/**
 * A reference whose target cannot give its bytes: the file or URL is missing, shorter than the
 * reference says, or no store handles its scheme.
 * @category Errors
 */
export class ReferenceTargetError extends StoreError {
  override name = "ReferenceTargetError";
  constructor(
    /** The store key whose reference failed. */
    readonly key: string,
    /** The target URL (query string removed). */
    readonly url: string,
    reason: string,
    options?: { cause?: unknown },
  ) {
    super(`Reference ${JSON.stringify(key)} -> ${url.split("?")[0]}: ${reason}`, options);
  }
}
