/**
 * Internals of `@z/store-core` shared with the other `@z` packages: the write-capability checks
 * and store coercions the array layer uses. Not part of the public API: names here change without
 * a major version. Applications import `@z/store-core`.
 * @packageDocumentation
 */
export { toStoreAsync } from "./location-async.js";
export { hasConditionalWrites } from "./store-conditional.js";
export { missingWriteMethods, notWritableError } from "./writable-check.js";
