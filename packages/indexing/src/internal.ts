/**
 * Internals of `@z/indexing` shared with the other `@z` packages: the copy kernels between chunks
 * and outputs, chunk regions and layouts, per-axis projections. Not part of the public API: names
 * here change without a major version. Applications import `@z/indexing`.
 * @packageDocumentation
 */
export { chunkAxes, chunkRegion, elementsInside, layoutChunkShape } from "./chunk-layout.js";
export { chunkView, copyChunkToOutput, fillRegion, outputView } from "./copy-chunk.js";
export { copyByOffsets, forEachOffset, scaled } from "./gather.js";
export {
  checkCoordinateLists,
  isAxisMask,
  isIndexArray,
  maskCoordinates,
  maskIndices,
  resolveIndexArray,
} from "./index-arrays.js";
export { countChunkProjections, coversChunk, projectAxis } from "./projection-internal.js";
export { normalizeIndex } from "./selection-index.js";
export { resolveSlice } from "./slice-resolve.js";
