import { deflate, Inflate } from "pako";
import { nativeCodecs } from "#native";
import { messageOf } from "../compressors/options.js";
import { DecodeError } from "../errors.js";

/**
 * zlib streams (RFC 1950) through pako, a faithful port of zlib: `compress2` at the Blosc
 * level gives the same bytes as c-blosc's zlib. Decoding uses node:zlib's native inflate in Node
 * (bounded by maxOutputLength) and pako elsewhere, and stops before writing past the block, so a
 * hostile stream cannot inflate beyond it.
 */

/**
 * Compresses `length` bytes of `src` at `start` into `dst` at `dstStart`. Returns the compressed
 * size, or 0 when it exceeds `maxout` (zlib's `compress2` fails then).
 */
export function zlibCompress(
  clevel: number,
  src: Uint8Array,
  start: number,
  length: number,
  dst: Uint8Array,
  dstStart: number,
  maxout: number,
): number {
  const out = deflate(src.subarray(start, start + length), { level: clevel as 1 });
  if (out.length > maxout) return 0;
  dst.set(out, dstStart);
  return out.length;
}

/**
 * Decodes the zlib stream `src[start, end)` into `dst[dstStart, dstEnd)` and returns the number
 * of bytes written.
 * @throws DecodeError for a corrupt or truncated stream, or one that decodes past `dstEnd`
 */
export function zlibDecompress(
  src: Uint8Array,
  start: number,
  end: number,
  dst: Uint8Array,
  dstStart: number,
  dstEnd: number,
): number {
  const capacity = dstEnd - dstStart;
  if (nativeCodecs) return nativeInflate(src.subarray(start, end), dst.subarray(dstStart, dstEnd));
  const inflator = new Inflate({ chunkSize: Math.max(1024, Math.min(capacity + 1, 1 << 16)) });
  let written = 0;
  inflator.onData = (chunk) => {
    const bytes = chunk as Uint8Array;
    if (written + bytes.length > capacity) {
      throw new DecodeError(
        `blosc: corrupt zlib stream: it decodes to more than the ${capacity} bytes of its block`,
      );
    }
    dst.set(bytes, dstStart + written);
    written += bytes.length;
  };
  const ok = inflator.push(src.subarray(start, end), true);
  if (!ok || inflator.err !== 0) {
    throw new DecodeError(
      `blosc: corrupt zlib stream: ${inflator.msg || `zlib error ${inflator.err}`}`,
    );
  }
  return written;
}

/** node:zlib's inflate into `dst`, its errors turned into DecodeErrors. */
function nativeInflate(src: Uint8Array, dst: Uint8Array): number {
  try {
    return (nativeCodecs as NonNullable<typeof nativeCodecs>).inflateInto(src, dst);
  } catch (error) {
    if ((error as { code?: string }).code === "ERR_BUFFER_TOO_LARGE") {
      throw new DecodeError(
        `blosc: corrupt zlib stream: it decodes to more than the ${dst.length} bytes of its block`,
      );
    }
    throw new DecodeError(`blosc: corrupt zlib stream: ${messageOf(error)}`);
  }
}
