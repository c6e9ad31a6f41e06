// The browser inflate, loaded by inflate.browser.ts on first use: fflate when the exact size is
// known (fast, decodes straight into the output), pako otherwise and whenever fflate's answer cannot be trusted (pako checks the
// checksums, reads every gzip member and streams, so the bound holds).
import { inflateSync } from "fflate";
import { adler32 } from "../checksums/adler32.js";
import { crc32Js as crc32 } from "../checksums/crc32.js";
import { gzipHeaderLength } from "../deflate/gzip-format.js";
import { pakoInflate } from "../deflate/pako-inflate.js";

/**
 * Decompresses gzip data (every member, as Python's gzip module reads it) into at most `limit`
 * bytes; `exact` says the output must be exactly `limit` bytes long.
 * @throws DecompressionError for corrupt, truncated or oversized data
 */
export function gunzipBounded(data: Uint8Array, limit: number, exact: boolean): Uint8Array {
  return (exact && fastGunzip(data, limit)) || pakoInflate(data, limit, "gzip");
}

/**
 * Decompresses a zlib stream (RFC 1950, what Python's `zlib.decompress` reads) into at most
 * `limit` bytes.
 * @throws DecompressionError for corrupt, truncated or oversized data
 */
export function unzlibBounded(data: Uint8Array, limit: number, exact: boolean): Uint8Array {
  return (exact && fastUnzlib(data, limit)) || pakoInflate(data, limit, "zlib");
}

/**
 * fflate on a single-member gzip of exactly `size` bytes, or undefined to fall back to pako.
 * fflate neither checks the CRC nor says where the deflate stream ended, so the result is only
 * taken when the trailer's CRC-32 and size match it and it is exactly `size` long: a multi-member
 * file of `size` bytes cannot pass, since its first member alone is shorter.
 */
function fastGunzip(data: Uint8Array, size: number): Uint8Array | undefined {
  const start = gzipHeaderLength(data);
  if (start === undefined || start + 8 > data.length) return undefined;
  const trailer = new DataView(data.buffer, data.byteOffset + data.length - 8, 8);
  if (trailer.getUint32(4, true) !== size >>> 0) return undefined;
  const out = inflateInto(data.subarray(start, data.length - 8), size);
  if (out === undefined || crc32(out) !== trailer.getUint32(0, true)) return undefined;
  return out;
}

/** fflate on a zlib stream of exactly `size` bytes, checked against its Adler-32. */
function fastUnzlib(data: Uint8Array, size: number): Uint8Array | undefined {
  if (
    data.length < 6 ||
    (data[0] & 0x0f) !== 8 ||
    data[0] >> 4 > 7 ||
    ((data[0] << 8) | data[1]) % 31 ||
    data[1] & 0x20
  ) {
    return undefined;
  }
  const out = inflateInto(data.subarray(2, data.length - 4), size);
  const stored = new DataView(data.buffer, data.byteOffset + data.length - 4, 4).getUint32(
    0,
    false,
  );
  if (out === undefined || adler32(out) !== stored) return undefined;
  return out;
}

/**
 * Raw-inflates into a buffer one byte longer than `size`; fflate never grows a buffer it is
 * given, so more output than that is dropped, and seen as the extra byte being used.
 */
function inflateInto(deflated: Uint8Array, size: number): Uint8Array | undefined {
  try {
    const out = inflateSync(deflated, { out: new Uint8Array(size + 1) });
    return out.length === size ? out : undefined;
  } catch {
    return undefined;
  }
}
