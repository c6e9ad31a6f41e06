/**
 * Zarr selections: integers, slices and ellipses resolved against an array's shape, split into
 * per-chunk projections, and the kernels that copy between chunks and outputs.
 * @packageDocumentation
 */
export * from "./basic-indexer.js";
export * from "./block.js";
export type { ChunkLayout } from "./chunk-layout.js";
export * from "./coordinate.js";
export * from "./copy.js";
export * from "./errors.js";
export type { AxisMask, IndexArray, Mask } from "./index-arrays.js";
export type { ChunkPart, Indexer, WriteSource } from "./indexer.js";
export * from "./orthogonal.js";
export * from "./projection.js";
export * from "./selection.js";
export * from "./slice.js";
