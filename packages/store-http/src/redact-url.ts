// Shared inside the @z packages, not public: URL redaction, kept out of http-error.ts, which the index
// re-exports whole so the build can turn it into `export *` (tools/build/split-friendly-barrels.mjs).
/** Strips the query string, which can hold credentials (presigned URL signatures, tokens). */
export function redactUrl(url: string): string {
  const query = url.indexOf("?");
  return query === -1 ? url : `${url.slice(0, query)}?…`;
}
