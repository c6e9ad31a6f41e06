/**
 * Internals of `@z/metadata` shared with the other `@z` packages: strided copies and byte order,
 * JSON and limit checks, the v2 and v3 document writers, validation of shapes and names, fill
 * value helpers. Not part of the public API: names here change without a major version.
 * Applications import `@z/metadata`.
 * @packageDocumentation
 */
export { checkArrayLimits, decodedChunkShape } from "./array-limits.js";
export { arrayMetadataToV3Json, collectExtraFields, withWhere } from "./array-metadata.js";
export { chunkShapeAt } from "./chunk-axis.js";
export { uniformChunkShape, validateChunkShape } from "./chunk-grid.js";
export { base64ToBytes, bytesToBase64 } from "./dtype/base64.js";
export { bytesOf, needsSwap, swapBytesInPlace } from "./dtype/bytes-order.js";
export { type ComplexArrayClass, complexParts, isComplex } from "./dtype/complex.js";
export { cOrderStrides, fOrderStrides, LITTLE_ENDIAN_HOST, product } from "./dtype/containers.js";
export { parseDateTimeV2, parseDateTimeV3 } from "./dtype/datetime.js";
export {
  FixedBytesBase,
  lengthBytesOf,
  lengthOfTypestr,
  stripTrailingNuls,
} from "./dtype/fixed-bytes.js";
export { notANumberReason, noV2Form, sameStoredFloat } from "./dtype/minifloat.js";
export { miniFloatHas, miniFloatMax, miniFloatNaNCode } from "./dtype/minifloat-format.js";
export { floatToJson, integerToJson, parseFloatFill } from "./dtype/numeric.js";
export { type PackedComponents, packedComponentsOf } from "./dtype/packed-bits.js";
export { copyStrided, isCContiguous, type StridedView, toCOrder } from "./dtype/strided.js";
export { parseStructV2, parseStructV3, structEndian } from "./dtype/struct-json.js";
export { valueDescription } from "./dtype/value-errors.js";
export { namedConfigToJson } from "./extension.js";
export { type FormatValueOptions, formatValue } from "./format-value.js";
export { groupMetadataToV3Json, METADATA_KEYS, validateNodeName } from "./group-metadata.js";
export { encodeJson, isJsonObject, stringifyJson } from "./json.js";
export { checkAttributes, checkJsonValue, USER_JSON_DEPTH_MARGIN } from "./json-check.js";
export { checkLimit } from "./limits.js";
export {
  arrayMetadataToV2Json,
  BYTES_LEVEL_NUMCODECS,
  codecsToV2Layout,
  NUMCODECS_PREFIX,
  numcodecsToNamedConfig,
  type V2Layout,
  v2Codecs,
} from "./v2.js";
export {
  requireField,
  requireObject,
  validateAttributes,
  validateDimensionNames,
  validateShape,
} from "./validate.js";
