/**
 * The error brand, `isZarrError`, the error facts and `formatValue` (values in error messages)
 * shared by every `@z` package: the one place the brand is declared, below every other package.
 * @packageDocumentation
 */
export * from "./brand.js";
export * from "./format-value.js";
export * from "./locate.js";
export * from "./zarr-error.js";
