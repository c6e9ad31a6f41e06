/**
 * Zarr v2 and v3 metadata: data types and their in-memory containers, fill values, chunk
 * grids, chunk key encodings, array and group documents, and the v2 to v3 translation.
 * @packageDocumentation
 */
export * from "./array-limits.js";
export * from "./array-metadata.js";
export * from "./chunk-axis.js";
export * from "./chunk-grid.js";
export * from "./chunk-key.js";
export * from "./dtype/base64.js";
export * from "./dtype/bool-array.js";
export * from "./dtype/bytes-order.js";
export * from "./dtype/complex.js";
export * from "./dtype/complex-extended.js";
export * from "./dtype/containers.js";
export * from "./dtype/datetime.js";
export * from "./dtype/dtype-errors.js";
export * from "./dtype/fixed-bytes.js";
export * from "./dtype/fixed-unicode.js";
export * from "./dtype/float16.js";
export * from "./dtype/lazy-load.js";
export * from "./dtype/minifloat.js";
export * from "./dtype/minifloat-format.js";
export * from "./dtype/numeric.js";
export * from "./dtype/packed-bits.js";
export * from "./dtype/raw.js";
export * from "./dtype/registry.js";
export * from "./dtype/small-int.js";
export * from "./dtype/strided.js";
export * from "./dtype/struct.js";
export * from "./dtype/struct-json.js";
export * from "./dtype/types.js";
export * from "./dtype/value-errors.js";
export * from "./errors.js";
export * from "./extension.js";
export * from "./format-value.js";
export * from "./group-metadata.js";
export * from "./json.js";
export * from "./json-check.js";
export * from "./limits.js";
export * from "./rectilinear-grid.js";
export * from "./v2.js";
export * from "./validate.js";
