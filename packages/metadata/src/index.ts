/**
 * Zarr v2 and v3 metadata: data types (which choose their in-memory containers from
 * `@z/ndarray`), fill values, chunk grids, chunk key encodings, array and group documents
 * (parsed, checked against limits and written back as BigInt-safe JSON), and the v2 to v3
 * translation.
 * @packageDocumentation
 */
export * from "./array-metadata.js";
export * from "./array-metadata-json.js";
export * from "./array-metadata-v2-json.js";
export * from "./chunk-axis.js";
export * from "./chunk-grid.js";
export * from "./chunk-grid-shape.js";
export * from "./chunk-key.js";
export * from "./dtype/base64.js";
export * from "./dtype/complex.js";
export * from "./dtype/complex-extended.js";
export * from "./dtype/datetime.js";
export * from "./dtype/dtype-errors.js";
export * from "./dtype/fixed-bytes.js";
export * from "./dtype/fixed-unicode.js";
export * from "./dtype/lazy-load.js";
export * from "./dtype/minifloat.js";
export * from "./dtype/minifloat-format.js";
export * from "./dtype/numeric.js";
export * from "./dtype/numeric-json.js";
export * from "./dtype/packed-bits.js";
export * from "./dtype/raw.js";
export * from "./dtype/registry.js";
export * from "./dtype/small-int.js";
export * from "./dtype/struct.js";
export * from "./dtype/types.js";
export * from "./dtype/value-errors.js";
export * from "./errors.js";
export * from "./extension.js";
export * from "./extension-json.js";
export * from "./group-metadata.js";
export * from "./group-metadata-json.js";
export * from "./json.js";
export * from "./json-check.js";
export * from "./json-object.js";
export * from "./json-write.js";
export * from "./limit-check.js";
export * from "./limits.js";
export * from "./metadata-keys.js";
export * from "./node-name.js";
export * from "./rectilinear-grid.js";
export * from "./v2.js";
export * from "./validate.js";
