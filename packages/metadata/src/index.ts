/**
 * Zarr v2 and v3 metadata: data types (which choose their in-memory containers from
 * `@z/ndarray`), fill values, chunk grids, chunk key encodings, array and group documents
 * (parsed, checked against limits and written back as BigInt-safe JSON), and the v2 to v3
 * translation.
 * @packageDocumentation
 */
export { type ArrayMetadata, parseArrayMetadataV3, type V2ArrayDetails } from "./array-metadata.js";
export { arrayMetadataToV3Json } from "./array-metadata-json.js";
export { arrayMetadataToV2Json } from "./array-metadata-v2-json.js";
export { type ChunkAxis, ExplicitChunkAxis, RegularChunkAxis } from "./chunk-axis.js";
export {
  type ChunkGrid,
  type ChunkGridFactory,
  RegularChunkGrid,
  registerChunkGrid,
  resolveChunkGrid,
} from "./chunk-grid.js";
export { uniformChunkShape, validateChunkShape } from "./chunk-grid-shape.js";
export {
  type ChunkKeyEncoding,
  type ChunkKeyEncodingFactory,
  DefaultChunkKeyEncoding,
  registerChunkKeyEncoding,
  resolveChunkKeyEncoding,
  V2ChunkKeyEncoding,
} from "./chunk-key.js";
export { base64ToBytes, bytesToBase64 } from "./dtype/base64.js";
export {
  type Complex,
  Complex64Array,
  Complex128Array,
  type ComplexAccessors,
  complex64,
  complex128,
} from "./dtype/complex.js";
export {
  ComplexMiniFloatType,
  complex_float32,
  complex_float64,
  complexExtensionDataTypes,
} from "./dtype/complex-extended.js";
export {
  DATETIME_UNITS,
  DateTimeType,
  type DateTimeUnit,
  datetime64,
  NAT,
  parseDateTimeUnit,
  timedelta64,
} from "./dtype/datetime.js";
export {
  DataTypeNotLoadedError,
  InvalidDataTypeError,
} from "./dtype/dtype-errors.js";
export { NullTerminatedBytesType, nullTerminatedBytes } from "./dtype/fixed-bytes.js";
export { FixedUnicodeType, fixedLengthUnicode } from "./dtype/fixed-unicode.js";
export {
  dataTypesLoaded,
  loadBuiltinDataTypes,
  loadDataTypes,
} from "./dtype/lazy-load.js";
export {
  bfloat16,
  float4_e2m1fn,
  float6_e2m3fn,
  float6_e3m2fn,
  float8_e3m4,
  float8_e4m3,
  float8_e4m3b11fnuz,
  float8_e4m3fnuz,
  float8_e5m2,
  float8_e5m2fnuz,
  float8_e8m0fnu,
  MiniFloatCodec,
  MiniFloatType,
  miniFloatDataTypes,
} from "./dtype/minifloat.js";
export {
  decodeMiniFloat,
  encodeMiniFloat,
  type MiniFloatFormat,
  type MiniFloatSpecials,
  miniFloatFormats,
} from "./dtype/minifloat-format.js";
export {
  bool,
  float16,
  float32,
  float64,
  int8,
  int16,
  int32,
  int64,
  numericDataTypes,
  uint8,
  uint16,
  uint32,
  uint64,
} from "./dtype/numeric.js";
export {
  floatFillToJson,
  floatToJson,
  integerToJson,
  parseFloatFill,
} from "./dtype/numeric-json.js";
export { type PackedComponents, packedComponentsOf } from "./dtype/packed-bits.js";
export { type RawBytesSpelling, RawBytesType } from "./dtype/raw.js";
export {
  loadDataTypesFor,
  registerDataType,
  registerDataTypeLoader,
  registeredDataTypeNames,
  resolveDataTypeV2,
  resolveDataTypeV3,
  resolveNumpyDataType,
  type V2DataType,
  type V2DataTypeResolver,
  type V3DataTypeResolver,
} from "./dtype/registry.js";
export { int2, int4, SmallIntType, smallIntDataTypes, uint2, uint4 } from "./dtype/small-int.js";
export {
  type StructField,
  type StructFieldSpec,
  StructType,
  type StructValue,
  structType,
} from "./dtype/struct.js";
export type { DataType, DataTypeKind, Endian, ZarrFormat } from "./dtype/types.js";
export { ValueTypeError } from "./dtype/value-errors.js";
export {
  ChunkGridError,
  FillValueError,
  MetadataError,
  MetadataLimitError,
  UnknownDataTypeError,
  UnsupportedExtensionError,
} from "./errors.js";
export { type NamedConfig, parseNamedConfig } from "./extension.js";
export { namedConfigToJson } from "./extension-json.js";
export {
  type GroupMetadata,
  parseGroupMetadataV2,
  parseGroupMetadataV3,
} from "./group-metadata.js";
export { groupMetadataToV3Json } from "./group-metadata-json.js";
export { type JsonObject, type JsonValue, parseJson } from "./json.js";
export { checkAttributes, checkJsonValue, USER_JSON_DEPTH_MARGIN } from "./json-check.js";
export { isJsonObject } from "./json-object.js";
export { encodeJson, stringifyJson } from "./json-write.js";
export { checkLimit } from "./limit-check.js";
export {
  DEFAULT_METADATA_LIMITS,
  type MetadataLimits,
  metadataLimits,
  setMetadataLimits,
} from "./limits.js";
export { METADATA_KEYS } from "./metadata-keys.js";
export { validateNodeName } from "./node-name.js";
export {
  type RectilinearAxisSpec,
  RectilinearChunkGrid,
  rectilinearGridFactory,
} from "./rectilinear-grid.js";
export { parseArrayMetadataV2 } from "./v2.js";
export { describe } from "./validate.js";
