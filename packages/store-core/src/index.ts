/**
 * Store interfaces, key rules, byte ranges, errors and wrapper stores shared by every `@z` store.
 * @packageDocumentation
 */
export * from "./byte-lru.js";
export * from "./caching-store.js";
export * from "./capabilities.js";
export * from "./clear-store.js";
export * from "./coalescing-store.js";
export * from "./dispose.js";
export * from "./entry-checks.js";
export * from "./errors.js";
export * from "./forwarding-store.js";
export { getSizeOf } from "./get-size.js";
export { getSizePrefixOf } from "./get-size-prefix.js";
export { isEmptyOf } from "./is-empty.js";
export * from "./keys.js";
export * from "./listing.js";
export * from "./location.js";
export * from "./map-store.js";
export * from "./normalize.js";
export { getPartialValuesOf, setPartialValuesOf } from "./partial-values.js";
export * from "./range.js";
export * from "./ranges-of.js";
export * from "./read-only-store.js";
export * from "./store.js";
export * from "./store-base.js";
export * from "./with-read-only.js";
export * from "./wrappers.js";
export * from "./zarrita-adapter.js";
