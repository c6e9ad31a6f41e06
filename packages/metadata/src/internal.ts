/**
 * Internals of `@z/metadata` shared with the other `@z` packages: the parsers' helpers, the
 * numcodecs mapping, validation of shapes and attributes, value parsers of data types. Not part
 * of the public API: names here change without a major version. Applications import
 * `@z/metadata`.
 * @packageDocumentation
 */
export { checkArrayLimits, decodedChunkShape } from "./array-limits.js";
export { collectExtraFields, withWhere } from "./array-metadata-internal.js";
export { chunkShapeAt } from "./chunk-axis-shape.js";
export type { ComplexArrayClass } from "./dtype/complex.js";
export { complexParts, isComplex } from "./dtype/complex-parts.js";
export { parseDateTimeV2, parseDateTimeV3 } from "./dtype/datetime-parse.js";
export {
  FixedBytesBase,
  lengthBytesOf,
  lengthOfTypestr,
  stripTrailingNuls,
} from "./dtype/fixed-bytes-internal.js";
export { miniFloatHas, miniFloatNaNCode } from "./dtype/minifloat-codes.js";
export { notANumberReason, noV2Form, sameStoredFloat } from "./dtype/minifloat-internal.js";
export { miniFloatMax } from "./dtype/minifloat-max.js";
export { parseStructV2, parseStructV3, structEndian } from "./dtype/struct-json.js";
export { valueDescription } from "./dtype/value-description.js";
export { type OnceLoader, runLoaderOnce } from "./load-once.js";
export type { V2Layout } from "./v2.js";
export {
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
