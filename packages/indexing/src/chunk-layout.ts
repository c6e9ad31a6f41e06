import { type ChunkAxis, RegularChunkAxis } from "@z/metadata";
import { type Slice, slice } from "./slice.js";

/**
 * The chunk boundaries selections are split along: per axis, a chunk length (a regular grid)
 * or a {@link ChunkAxis} (any grid, e.g. `rectilinear`). `chunkGrid.axes` and a plain chunk
 * shape are both layouts.
 */
export type ChunkLayout = readonly (number | ChunkAxis)[];

/** The layout's axes as {@link ChunkAxis} objects. */
export function chunkAxes(layout: ChunkLayout): ChunkAxis[] {
  return layout.map((a) => (typeof a === "number" ? new RegularChunkAxis(a) : a));
}

/** The shape the chunk at grid coordinates `coords` has in a layout. */
export function layoutChunkShape(layout: ChunkLayout, coords: readonly number[]): number[] {
  return layout.map((a, i) => (typeof a === "number" ? a : a.size(coords[i])));
}

/** How many elements of chunk `chunk` along `axis` lie inside an axis of `length` elements. */
export function elementsInside(axis: ChunkAxis, chunk: number, length: number): number {
  return Math.max(0, Math.min(axis.size(chunk), length - axis.start(chunk)));
}

/** The region of the chunk at `coords` that lies inside an array of `shape`, as one slice per axis. */
export function chunkRegion(
  layout: ChunkLayout,
  coords: readonly number[],
  shape: readonly number[],
): Slice[] {
  return chunkAxes(layout).map((axis, i) => {
    const start = axis.start(coords[i]);
    return slice(start, Math.min(start + axis.size(coords[i]), shape[i]));
  });
}
