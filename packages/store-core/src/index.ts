/**
 * Store interfaces, key rules, byte ranges, errors and wrapper stores shared by every `@z` store.
 * @packageDocumentation
 */
export * from "./byte-lru.js";
export * from "./caching-store.js";
export * from "./coalescing-store.js";
export * from "./entry-checks.js";
export * from "./errors.js";
export * from "./forwarding-store.js";
export * from "./keys.js";
export * from "./listing.js";
export * from "./location.js";
export * from "./map-store.js";
export * from "./normalize.js";
export * from "./range.js";
export * from "./ranges-of.js";
export * from "./store.js";
export * from "./wrappers.js";
export * from "./zarrita-adapter.js";
