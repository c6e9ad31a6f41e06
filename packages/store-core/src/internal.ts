/**
 * Internals of `@z/store-core` shared with the other `@z` packages: the write-capability checks
 * and store coercions the array layer uses. Not part of the public API: names here change without
 * a major version. Applications import `@z/store-core`.
 * @packageDocumentation
 */
export * from "./location-async.js";
export * from "./store-conditional.js";
export * from "./writable-check.js";
