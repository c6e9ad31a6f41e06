/**
 * Zarr codecs: the codec interfaces, the registry, the v3 pipeline, and every built-in codec
 * (bytes, transpose, crc32c, gzip, zlib, zstd, blosc, lz4, the numcodecs filters, and the
 * registered reshape, cast_value, scale_offset and bitround).
 * Importing the package registers them all.
 * @packageDocumentation
 */
import "./builtins.js";

export { adler32, crc32, crc32c, fletcher32 } from "@z/compression/checksums";
export { afterLoading } from "./after-loading.js";
export {
  BLOSC_CNAMES,
  type BloscCname,
  BloscCodec,
  type BloscCompressOptions,
  type BloscHeader,
  type BloscSettings,
  type BloscShuffleCode,
  type BloscShuffleName,
  bloscCompress,
  bloscDecompress,
  readBloscHeader,
} from "./blosc/public.js";
export {
  type ByteRangeSource,
  memorySource,
  readSourceRanges,
  type SourceRange,
  type SourceReadOptions,
  subrangeSource,
} from "./byte-source.js";
export { Base64Codec } from "./compressors/base64.js";
export { Bz2Codec } from "./compressors/bz2.js";
export {
  Checksum32Codec,
  type Checksum32Kind,
  type ChecksumLocation,
} from "./compressors/checksum32.js";
export { GzipCodec } from "./compressors/gzip.js";
export { Lz4Codec } from "./compressors/lz4.js";
export {
  decodeLz4Frame,
  encodeLz4Frame,
  type Lz4FrameDecodeOptions,
} from "./compressors/lz4-frame.js";
export { LzmaCodec } from "./compressors/lzma.js";
export { ZlibCodec } from "./compressors/zlib.js";
export { ZstdCodec } from "./compressors/zstd.js";
export { BytesCodec } from "./core/bytes.js";
export { Crc32cCodec } from "./core/crc32c-codec.js";
export { PackBitsArrayToBytesCodec, type PackBitsPadding } from "./core/packbits.js";
export { TransposeCodec } from "./core/transpose.js";
export {
  ChecksumError,
  CodecConfigError,
  CodecError,
  type CodecErrorOptions,
  DecodeError,
  UnknownCodecError,
} from "./errors.js";
export { IntegerBitRoundCodec } from "./extensions/bitround-integers.js";
export type { OutOfRange, RoundingMode } from "./extensions/cast.js";
export { CastValueCodec, CastValueError, type CastValueOptions } from "./extensions/cast-value.js";
export type { NumericScalar } from "./extensions/numeric-domain.js";
export { ReshapeCodec, type ReshapeDimension } from "./extensions/reshape.js";
export { ScaleOffsetCodec, ScaleOffsetError } from "./extensions/scale-offset.js";
export { AsTypeCodec } from "./filters/astype.js";
export { BitRoundCodec } from "./filters/bitround.js";
export { CategorizeCodec } from "./filters/categorize.js";
export { DeltaCodec } from "./filters/delta.js";
export { FixedScaleOffsetCodec } from "./filters/fixed-scale-offset.js";
export { PackBitsCodec } from "./filters/packbits.js";
export { QuantizeCodec } from "./filters/quantize.js";
export { ShuffleCodec } from "./filters/shuffle.js";
export type { FilterDtype, NumericKind, NumericType } from "./filters/types.js";
export { CodecNotLoadedError } from "./not-loaded.js";
export type {
  PartialArrayToBytes,
  PartialDecoder,
  PartialIoOptions,
  SubchunkWrite,
} from "./partial.js";
export {
  CodecPipeline,
  DEFAULT_MAX_DECODED_BYTES,
  type PipelineOptions,
  type Stage,
} from "./pipeline.js";
export {
  hasCodec,
  loadAllCodecs,
  loadCodecs,
  loadCodecsFor,
  registerCodec,
  registerCodecLoader,
  registeredCodecs,
  resolveCodec,
} from "./registry.js";
export { ShardingCodec } from "./sharding/codec.js";
export type { IndexLocation, ShardingConfiguration } from "./sharding/config.js";
export { type ShardEntry, ShardIndex } from "./sharding/shard-index.js";
export type {
  ArrayToArrayCodec,
  ArrayToBytesCodec,
  BytesDecodeOptions,
  BytesToBytesCodec,
  ChunkSpec,
  Codec,
  CodecBase,
  CodecContext,
  CodecFactory,
} from "./types.js";
export {
  type ChunkDecodePool,
  defaultWorkerCount,
  type PoolDecodeOptions,
  setDefaultDecodePool,
  setDefaultWorkerCount,
} from "./workers/decode-pool.js";
