// Shared inside the @z packages, not public: the chunk shape at an index, kept out of chunk-axis.ts, which the index
// re-exports whole so the build can turn it into `export *` (tools/build/split-friendly-barrels.mjs).
import type { ChunkAxis } from "./chunk-axis.js";

/** The edge lengths of the chunk at grid coordinates `coords`. */
export function chunkShapeAt(axes: readonly ChunkAxis[], coords: readonly number[]): number[] {
  return axes.map((axis, i) => axis.size(coords[i]));
}
