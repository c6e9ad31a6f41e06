/**
 * Internals of `@z/compression` shared with the other `@z` packages. Not part of the public
 * API: names here change without a major version.
 * @packageDocumentation
 */
export * from "./lazy.js";
export * from "./simd/load.js";
