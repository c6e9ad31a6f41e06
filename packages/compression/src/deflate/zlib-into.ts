import { deflate } from "pako";
import { nativeCodecs } from "#native";
import { DecompressionError } from "../errors.js";
import { messageOf } from "../message-of.js";
import { pakoInflate } from "./pako-inflate.js";

/**
 * Compresses `data` into one zlib stream (RFC 1950) synchronously with pako, a faithful port of
 * zlib: at `level` (-1 to 9) it gives the bytes of zlib's `compress2` (what c-blosc writes).
 */
export function zlibCompressSync(data: Uint8Array, level: number): Uint8Array {
  return deflate(data, { level: level as 1 });
}

/**
 * Decodes the zlib stream `src` into `dst` synchronously and returns the number of bytes
 * written: node:zlib's native inflate in Node (bounded by maxOutputLength), pako elsewhere
 * (streamed, so a hostile stream stops at the limit). For small streams of a synchronous caller.
 * @throws DecompressionError for a corrupt or truncated stream, or one that decodes past `dst`
 */
export function zlibDecompressInto(src: Uint8Array, dst: Uint8Array): number {
  if (!nativeCodecs) {
    const out = pakoInflate(src, dst.length, "zlib");
    dst.set(out);
    return out.length;
  }
  try {
    return nativeCodecs.inflateInto(src, dst);
  } catch (error) {
    if ((error as { code?: string }).code === "ERR_BUFFER_TOO_LARGE")
      throw DecompressionError.tooLarge("zlib", dst.length);
    throw new DecompressionError("zlib", messageOf(error), { cause: error });
  }
}
