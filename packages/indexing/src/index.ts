/**
 * Zarr selections: integers, slices and ellipses resolved against an array's shape, split into
 * per-chunk projections, and the kernels that copy between chunks and outputs.
 * @packageDocumentation
 */
export { BasicIndexer } from "./basic-indexer.js";
export { type BlockItem, blockIndexer } from "./block.js";
export type { ChunkLayout } from "./chunk-layout.js";
export { CoordinateIndexer, type CoordinateSelection } from "./coordinate.js";
export { projectionShape } from "./copy.js";
export { BoundsError, SelectionError } from "./errors.js";
export type { AxisMask, IndexArray, Mask } from "./index-arrays.js";
export type { ChunkPart, Indexer, WriteSource } from "./indexer.js";
export { OrthogonalIndexer, type OrthogonalItem } from "./orthogonal.js";
export { type AxisProjection, type ChunkProjection, chunkProjections } from "./projection.js";
export {
  type AxisSelection,
  type BasicSelection,
  normalizeSelection,
  type SelectionItem,
  selectionShape,
} from "./selection.js";
export { formatSlice, isSlice, parseSelection, type Slice, slice } from "./slice.js";
