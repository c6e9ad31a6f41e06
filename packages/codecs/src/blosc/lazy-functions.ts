// The blosc functions the package exports, as wrappers that load the stream codecs (and pako,
// blosclz, lz4, snappy, zstd) on first call: re-exporting them directly would make every app
// that imports @z/codecs load them up front.
import { loadSimdKernels } from "@z/compression/internal";
import type { BytesDecodeOptions } from "../types.js";
import type { BloscCompressOptions } from "./compress.js";

/**
 * Writes `data` as one Blosc1 frame the way c-blosc 1.21 does (see {@link BloscCompressOptions}).
 * @throws CodecConfigError for options c-blosc would refuse
 */
export async function bloscCompress(
  data: Uint8Array,
  options: BloscCompressOptions,
): Promise<Uint8Array> {
  await loadSimdKernels(); // so that the block loop can use them
  return (await import("./compress.js")).bloscCompress(data, options);
}

/**
 * Decodes a Blosc1 frame as c-blosc 1.x writes it (every compressor, byte and bit shuffle,
 * split and unsplit blocks, uncompressed frames), bounded by `options`. `options.ranges`
 * (byte ranges of the decoded data) decodes only the blocks they touch, as c-blosc's
 * `blosc_getitem` does: only the bytes inside the ranges are then valid, and a corrupt block
 * no range touches goes unnoticed. `options.into` (exactly the decoded size, a view of a
 * SharedArrayBuffer too) receives the bytes and is returned instead of a new buffer.
 * @throws DecodeError for anything malformed, truncated or larger than the bound;
 *   CodecError for ranges outside the decoded data or an `into` of the wrong size
 */
export async function bloscDecompress(
  frame: Uint8Array,
  options: BytesDecodeOptions,
): Promise<Uint8Array> {
  await loadSimdKernels(); // so that the block loop can use them
  return (await import("./decompress.js")).bloscDecompress(frame, options);
}
