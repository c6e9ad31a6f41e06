/**
 * Internals of `@z/array` shared with the other `@z` packages (the h5py-style layer of
 * `@z/zarr`) and the benchmarks: reading node documents, the consolidated-metadata update of a
 * hierarchy change, and the per-key write lock. Not part of the public API: names here change
 * without a major version. Applications import `@z/array`.
 * @packageDocumentation
 */

export * from "./consolidated/update-consolidated.js";
export * from "./create/options-like.js";
export type { ChunkAccess } from "./io/chunk-access.js";
export * from "./nodes/group.js";
export * from "./nodes/metadata-io.js";
export * from "./write/key-lock.js";
