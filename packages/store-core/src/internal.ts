/**
 * Internals of `@z/store-core` shared with the other `@z` packages: the write-capability checks
 * and store coercions the array layer uses. Not part of the public API: names here change without
 * a major version. Applications import `@z/store-core`.
 * @packageDocumentation
 */

export { DEFAULT_CONCURRENCY, mapBounded } from "./bounded-map.js";
export { readSize } from "./get-size.js";
export { sumSizes } from "./get-size-prefix.js";
export { hasNoKeys } from "./is-empty.js";
export * from "./location-async.js";
export { readPartialValues } from "./partial-values.js";
export * from "./partial-write.js";
export * from "./store-conditional.js";
export * from "./writable-check.js";
