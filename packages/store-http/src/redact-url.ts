// URL redaction: private to the @z packages. http-error.ts holds the public side, which the
// package entry re-exports whole.
/** Strips the query string, which can hold credentials (presigned URL signatures, tokens). */
export function redactUrl(url: string): string {
  const query = url.indexOf("?");
  return query === -1 ? url : `${url.slice(0, query)}?…`;
}
