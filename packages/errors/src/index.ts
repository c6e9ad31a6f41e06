/**
 * The error brand, `isZarrError`, the error facts and `formatValue` (values in error messages)
 * shared by every `@z` package: the one place the brand is declared, below every other package.
 * @packageDocumentation
 */
export type { BrandedError, ZarrErrorMap, ZarrErrorName } from "./brand.js";
export { errorNames, isZarrError, ZARR_ERROR_BRAND } from "./brand.js";
export { type FormatValueOptions, formatValue } from "./format-value.js";
export { locateError } from "./locate.js";
export type { ErrorFacts, ZarrErrorOptions } from "./zarr-error.js";
export { nameErrorClass, ZarrError } from "./zarr-error.js";
