// The browser inflate, loaded by inflate.browser.ts on first use: fflate when the exact size is
// known (fast, decodes straight into the output), pako otherwise and whenever fflate's answer cannot be trusted (pako checks the
// checksums, reads every gzip member and streams, so the bound holds).
import { inflateSync } from "fflate";
import { Inflate } from "pako";
import { adler32 } from "../compressors/adler32.js";
import { crc32 } from "../compressors/crc32.js";
import { gzipHeaderLength } from "../compressors/gzip-format.js";
import { DecodeError } from "../errors.js";

/**
 * Decompresses gzip data (every member, as Python's gzip module reads it) into at most `limit`
 * bytes; `exact` says the output must be exactly `limit` bytes long.
 * @throws DecodeError for corrupt, truncated or oversized data
 */
export function gunzipBounded(
  data: Uint8Array,
  limit: number,
  exact: boolean,
  label: string,
): Uint8Array {
  return (exact && fastGunzip(data, limit)) || pakoInflate(data, limit, 16 + 15, label);
}

/**
 * Decompresses a zlib stream (RFC 1950, what Python's `zlib.decompress` reads) into at most
 * `limit` bytes.
 * @throws DecodeError for corrupt, truncated or oversized data
 */
export function unzlibBounded(
  data: Uint8Array,
  limit: number,
  exact: boolean,
  label: string,
): Uint8Array {
  return (exact && fastUnzlib(data, limit)) || pakoInflate(data, limit, 15, label);
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

function pakoInflate(
  data: Uint8Array,
  limit: number,
  windowBits: number,
  label: string,
): Uint8Array {
  const inflator = new Inflate({
    windowBits,
    chunkSize: Math.min(limit + 1, Math.max(1 << 16, data.length * 4)),
  });
  const chunks: Uint8Array[] = [];
  let total = 0;
  inflator.onData = (chunk) => {
    const bytes = chunk as Uint8Array;
    total += bytes.length;
    if (total > limit) {
      throw new DecodeError(
        `${label}: the data decompresses to more than ${limit} bytes, the most this chunk may hold`,
      );
    }
    chunks.push(bytes);
  };
  inflator.push(data, true);
  if (inflator.err || !(inflator as unknown as { ended: boolean }).ended) {
    throw new DecodeError(
      `${label}: corrupt or truncated data (${inflator.msg || "the stream ends early"})`,
    );
  }
  if (chunks.length === 1) return chunks[0];
  const out = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.length;
  }
  return out;
}
