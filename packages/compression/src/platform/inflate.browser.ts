// Browser variant of "#inflate": fflate and pako (about 20 kB gzipped) load on the first gzip or
// zlib stream, so apps reading other data never download them.
import { lazily } from "../lazy.js";

const inflate = lazily(() => import("./inflate-impl.browser.js"));

/**
 * Decompresses gzip data (every member) into at most `limit` bytes; `exact` says the output
 * must be exactly `limit` bytes long.
 * @throws DecompressionError for corrupt, truncated or oversized data
 */
export function gunzipBounded(
  data: Uint8Array,
  limit: number,
  exact: boolean,
): Uint8Array | Promise<Uint8Array> {
  return inflate((m) => m.gunzipBounded(data, limit, exact));
}

/**
 * Decompresses a zlib stream (RFC 1950) into at most `limit` bytes.
 * @throws DecompressionError for corrupt, truncated or oversized data
 */
export function unzlibBounded(
  data: Uint8Array,
  limit: number,
  exact: boolean,
): Uint8Array | Promise<Uint8Array> {
  return inflate((m) => m.unzlibBounded(data, limit, exact));
}
