/**
 * Raw compression algorithms and checksums, with no Zarr concepts: LZ4 (block, HC and frame),
 * zstd, deflate (zlib and gzip), bzip2, LZMA (.xz, .lzma, raw LZMA2), snappy, BloscLZ, CRC-32,
 * CRC-32C, Adler-32, Fletcher-32, XXH32 and XXH64. Each runs natively where the platform has it
 * (node:zlib in Node), else in WebAssembly or JavaScript; heavy parts load on first use. Every
 * decoder bounds its output and reports bad data as a {@link DecompressionError}.
 *
 * Subpaths (`@z/compression/lz4`, `/zstd`, `/deflate`, `/deflate-sync`, `/checksums`, `/xxhash`, `/snappy`, `/blosclz`,
 * `/bz2`, `/lzma`) hold one family each, for bundles that need only that one.
 * @packageDocumentation
 */
export { blosclzCompress, blosclzDecompress } from "./blosclz.js";
export { bz2Decompress } from "./bz2.js";
export { adler32, crc32, crc32c, crc32Js, fletcher32 } from "./checksums.js";
export {
  gzipCompress,
  gzipDecompress,
  type InflateOptions,
  zlibCompress,
  zlibDecompress,
} from "./deflate.js";
export {
  type DeflateLevel,
  gzipCompressPython,
  gzipExtraFlags,
  gzipHeaderLength,
  type PythonCalls,
  pythonDeflate,
  zlibCompressSync,
  zlibDecompressInto,
} from "./deflate-sync.js";
export { DecompressionError, type DecompressionErrorOptions } from "./errors.js";
export {
  type Lz4FrameDecompressOptions,
  lz4CompressBlock,
  lz4CompressBound,
  lz4CompressWasm,
  lz4DecompressBlock,
  lz4FrameCompress,
  lz4FrameDecompress,
  lz4hcCompressBlock,
} from "./lz4.js";
export {
  aloneLayout,
  isXz,
  type LzmaDecompressOptions,
  type LzmaFormat,
  type LzmaLayout,
  loadLzma,
  lzma2Layout,
  lzmaCompress,
  lzmaDecompress,
  type NapiLzma,
  xzLayout,
} from "./lzma.js";
export { snappyCompress, snappyDecompress, snappyMaxCompressedLength } from "./snappy.js";
export { xxhash32, xxhash64 } from "./xxhash.js";
export {
  withContentSize,
  type ZstdDecompressOptions,
  type ZstdFrame,
  type ZstdLayout,
  zstdCompress,
  zstdCompressWasm,
  zstdDecompress,
  zstdIsNative,
  zstdLayout,
} from "./zstd.js";
