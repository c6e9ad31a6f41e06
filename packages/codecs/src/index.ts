/**
 * Zarr codecs: the codec interfaces, the registry, the v3 pipeline, and every built-in codec
 * (bytes, transpose, crc32c, gzip, zlib, zstd, blosc, lz4, the numcodecs filters, and the
 * registered reshape, cast_value, scale_offset and bitround).
 * Importing the package registers them all.
 * @packageDocumentation
 */
import "./builtins.js";

export { adler32, crc32, crc32c, fletcher32 } from "@z/compression/checksums";
export * from "./after-loading.js";
export * from "./blosc/public.js";
export * from "./byte-source.js";
export * from "./compressors/base64.js";
export * from "./compressors/bz2.js";
export * from "./compressors/checksum32.js";
export * from "./compressors/gzip.js";
export * from "./compressors/lz4.js";
export * from "./compressors/lz4-frame.js";
export * from "./compressors/lzma.js";
export * from "./compressors/zlib.js";
export * from "./compressors/zstd.js";
export * from "./core/bytes.js";
export * from "./core/crc32c-codec.js";
export * from "./core/packbits.js";
export * from "./core/transpose.js";
export * from "./errors.js";
export * from "./extensions/bitround-integers.js";
export type { OutOfRange, RoundingMode } from "./extensions/cast.js";
export * from "./extensions/cast-value.js";
export type { NumericScalar } from "./extensions/numeric-domain.js";
export * from "./extensions/reshape.js";
export * from "./extensions/scale-offset.js";
export * from "./filters/astype.js";
export * from "./filters/bitround.js";
export * from "./filters/categorize.js";
export * from "./filters/delta.js";
export * from "./filters/fixed-scale-offset.js";
export * from "./filters/packbits.js";
export * from "./filters/quantize.js";
export * from "./filters/shuffle.js";
export * from "./filters/types.js";
export * from "./not-loaded.js";
export * from "./partial.js";
export * from "./pipeline.js";
export * from "./registry.js";
export * from "./sharding/codec.js";
export type { IndexLocation, ShardingConfiguration } from "./sharding/config.js";
export * from "./sharding/shard-index.js";
export * from "./types.js";
export * from "./workers/decode-pool.js";
