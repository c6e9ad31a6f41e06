import type { ChunkAxis } from "./chunk-axis.js";

/** The edge lengths of the chunk at grid coordinates `coords`. */
export function chunkShapeAt(axes: readonly ChunkAxis[], coords: readonly number[]): number[] {
  return axes.map((axis, i) => axis.size(coords[i]));
}
