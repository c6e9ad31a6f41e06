/**
 * Internals of `@z/indexing` shared with the other `@z` packages: the copy kernels between chunks
 * and outputs, chunk regions and layouts, per-axis projections. Not part of the public API: names
 * here change without a major version. Applications import `@z/indexing`.
 * @packageDocumentation
 */
export * from "./chunk-layout.js";
export * from "./copy-chunk.js";
export * from "./gather.js";
export * from "./index-arrays.js";
export * from "./projection-internal.js";
export * from "./selection-index.js";
export * from "./slice-resolve.js";
