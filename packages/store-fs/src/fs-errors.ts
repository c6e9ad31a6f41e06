/** The `code` of a Node system error, if it has one. */
export function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : undefined;
}

/**
 * Whether an error means "there is no such file here": the path is missing (`ENOENT`), a
 * parent is a file (`ENOTDIR`), or the name is a directory (`EISDIR`).
 */
export function isNoFile(error: unknown): boolean {
  const code = errorCode(error);
  return code === "ENOENT" || code === "ENOTDIR" || code === "EISDIR";
}

/** Whether an error means the path, or one of its parents, does not exist (as a directory). */
export function isNoDirectory(error: unknown): boolean {
  const code = errorCode(error);
  return code === "ENOENT" || code === "ENOTDIR";
}
