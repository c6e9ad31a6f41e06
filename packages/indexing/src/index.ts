/**
 * Zarr selections: integers, slices and ellipses resolved against an array's shape, split into
 * per-chunk projections, and the kernels that copy between chunks and outputs.
 * @packageDocumentation
 */
export { copyStrided, type StridedView } from "@z/metadata";
export * from "./basic-indexer.js";
export * from "./block.js";
export * from "./chunk-layout.js";
export * from "./coordinate.js";
export * from "./copy.js";
export * from "./errors.js";
export * from "./gather.js";
export * from "./index-arrays.js";
export * from "./indexer.js";
export * from "./orthogonal.js";
export * from "./projection.js";
export * from "./selection.js";
export * from "./slice.js";
