/**
 * Internals of `@z/metadata` shared with the other `@z` packages: strided copies and byte order,
 * JSON and limit checks, the v2 and v3 document writers, validation of shapes and names, fill
 * value helpers. Not part of the public API: names here change without a major version.
 * Applications import `@z/metadata`.
 * @packageDocumentation
 */
export { checkArrayLimits, decodedChunkShape } from "./array-limits.js";
export { collectExtraFields, withWhere } from "./array-metadata-internal.js";
export { arrayMetadataToV3Json } from "./array-metadata-json.js";
export { chunkShapeAt } from "./chunk-axis-shape.js";
export { uniformChunkShape, validateChunkShape } from "./chunk-grid-shape.js";
export { base64ToBytes, bytesToBase64 } from "./dtype/base64.js";
export { bytesOf, needsSwap, swapBytesInPlace } from "./dtype/bytes-order.js";
export type { ComplexArrayClass } from "./dtype/complex.js";
export { complexParts, isComplex } from "./dtype/complex-parts.js";
export { parseDateTimeV2, parseDateTimeV3 } from "./dtype/datetime-parse.js";
export {
  FixedBytesBase,
  lengthBytesOf,
  lengthOfTypestr,
  stripTrailingNuls,
} from "./dtype/fixed-bytes-internal.js";
export {
  cOrderStrides,
  fOrderStrides,
  LITTLE_ENDIAN_HOST,
  product,
} from "./dtype/memory-layout.js";
export { miniFloatHas, miniFloatNaNCode } from "./dtype/minifloat-codes.js";
export { notANumberReason, noV2Form, sameStoredFloat } from "./dtype/minifloat-internal.js";
export { miniFloatMax } from "./dtype/minifloat-max.js";
export { floatToJson, integerToJson, parseFloatFill } from "./dtype/numeric-json.js";
export { type PackedComponents, packedComponentsOf } from "./dtype/packed-bits.js";
export { copyStrided, isCContiguous, type StridedView, toCOrder } from "./dtype/strided.js";
export { parseStructV2, parseStructV3, structEndian } from "./dtype/struct-json.js";
export { valueDescription } from "./dtype/value-description.js";
export { namedConfigToJson } from "./extension-json.js";
export { type FormatValueOptions, formatValue } from "./format-value.js";
export {
  groupMetadataToV3Json,
  METADATA_KEYS,
  validateNodeName,
} from "./group-metadata-internal.js";
export { checkAttributes, checkJsonValue, USER_JSON_DEPTH_MARGIN } from "./json-check.js";
export { isJsonObject } from "./json-object.js";
export { encodeJson, stringifyJson } from "./json-write.js";
export { checkLimit } from "./limit-check.js";
export { type OnceLoader, runLoaderOnce } from "./load-once.js";
export type { V2Layout } from "./v2.js";
export {
  arrayMetadataToV2Json,
  BYTES_LEVEL_NUMCODECS,
  codecsToV2Layout,
  NUMCODECS_PREFIX,
  numcodecsToNamedConfig,
  v2Codecs,
} from "./v2-internal.js";
export {
  requireField,
  requireObject,
  validateAttributes,
  validateDimensionNames,
  validateShape,
} from "./validate-internal.js";
