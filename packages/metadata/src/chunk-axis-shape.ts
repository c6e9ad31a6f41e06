// The chunk shape at an index: private to the @z packages. chunk-axis.ts holds the public side, which the
// package entry re-exports whole.
import type { ChunkAxis } from "./chunk-axis.js";

/** The edge lengths of the chunk at grid coordinates `coords`. */
export function chunkShapeAt(axes: readonly ChunkAxis[], coords: readonly number[]): number[] {
  return axes.map((axis, i) => axis.size(coords[i]));
}
