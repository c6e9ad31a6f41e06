/**
 * Internals of `@z/metadata` shared with the other `@z` packages: the parsers' helpers, the
 * numcodecs mapping, validation of shapes and attributes, value parsers of data types. Not part
 * of the public API: names here change without a major version. Applications import
 * `@z/metadata`.
 * @packageDocumentation
 */
export * from "./array-limits.js";
export * from "./array-metadata-internal.js";
export type { ComplexArrayClass } from "./dtype/complex.js";
export * from "./dtype/complex-parts.js";
export * from "./dtype/datetime-parse.js";
export * from "./dtype/fixed-bytes-internal.js";
export * from "./dtype/minifloat-codes.js";
export * from "./dtype/minifloat-internal.js";
export * from "./dtype/minifloat-max.js";
export * from "./dtype/struct-json.js";
export * from "./dtype/value-description.js";
export * from "./load-once.js";
export type { V2Layout } from "./v2.js";
export * from "./v2-internal.js";
export * from "./validate-internal.js";
