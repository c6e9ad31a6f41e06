/**
 * LZ4: the block compressor of `LZ4_compress_fast` and LZ4HC (byte for byte as liblz4 1.9 on
 * 64-bit machines), liblz4 compiled to WebAssembly (loaded on first use), a bounded block
 * decoder, and the frame format.
 * @packageDocumentation
 */
export { lz4CompressBlock, lz4CompressBound } from "./lz4/compress.js";
export { lz4DecompressBlock } from "./lz4/decompress.js";
export {
  type Lz4FrameDecompressOptions,
  lz4FrameCompress,
  lz4FrameDecompress,
} from "./lz4/frame.js";
export { lz4hcCompressBlock } from "./lz4/hc.js";
export { lz4CompressWasm } from "./wasm.js";
