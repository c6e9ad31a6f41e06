/**
 * The base URL with a trailing `/` on its path, query string and fragment kept apart, so keys
 * can be appended to the path and the query (a token, say) added to every request.
 */
export function splitBaseUrl(url: string | URL): { base: string; query: string } {
  const parsed = new URL(String(url));
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    throw new TypeError(`HttpStore needs an http(s) URL, got ${parsed.protocol}`);
  }
  const query = parsed.search;
  parsed.search = "";
  parsed.hash = "";
  let base = parsed.href;
  if (!base.endsWith("/")) base += "/";
  return { base, query };
}

/**
 * The URL of a key: each segment percent-encoded (so a node named "my group with spaces", a `%`
 * or a `?` stays one path segment of its own), appended to the base URL's path. The key must
 * be valid (the store checked it where it entered): then no `..`, `.` or empty segment can
 * move the URL out of the base.
 */
export function keyUrl(base: string, query: string, key: string): string {
  return base + key.split("/").map(encodeURIComponent).join("/") + query;
}
