/**
 * Internals of `@z/array` shared with the other `@z` packages (the h5py-style layer of
 * `@z/zarr`) and the benchmarks: reading node documents, the consolidated-metadata update of a
 * hierarchy change, and the per-key write lock. Not part of the public API: names here change
 * without a major version. Applications import `@z/array`.
 * @packageDocumentation
 */
export type { ChunkAccess } from "./chunk-access.js";
export * from "./group.js";
export * from "./key-lock.js";
export * from "./metadata-io.js";
export * from "./options-like.js";
export * from "./update-consolidated.js";
