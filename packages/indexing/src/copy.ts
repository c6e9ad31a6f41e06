import type { ChunkProjection } from "./projection.js";

/** The counts of a projection, one per array axis. */
export function projectionShape(projection: ChunkProjection): number[] {
  return projection.axes.map((a) => a.count);
}
