import type { ChunkLayout } from "./chunk-layout.js";
import { projectAxis } from "./projection-internal.js";
import type { AxisSelection } from "./selection.js";

/** Which elements of one chunk, along one axis, a selection takes, and where they go. */
export interface AxisProjection {
  /** The chunk's index along the axis. */
  chunk: number;
  /** First selected index inside the chunk. */
  start: number;
  /** Step between selected indices inside the chunk (negative for reversed slices). */
  step: number;
  /** How many indices are selected. */
  count: number;
  /** Position of the first of them along the output axis. */
  outStart: number;
}

/** The part of one chunk a selection takes: its coordinates and one projection per axis. */
export interface ChunkProjection {
  /** The chunk's grid coordinates. */
  coords: number[];
  /** Per axis, the selected elements of the chunk and their output position. */
  axes: AxisProjection[];
}

/**
 * Every chunk a selection touches, with the part of it selected. Lazily generated: a huge
 * selection over small chunks does not build a huge list.
 */
export function* chunkProjections(
  selection: readonly AxisSelection[],
  layout: ChunkLayout,
): Generator<ChunkProjection> {
  const perAxis = selection.map((s, axis) => projectAxis(s, layout[axis]));
  if (perAxis.some((list) => list.length === 0)) return;
  const ndim = perAxis.length;
  const pick = new Array<number>(ndim).fill(0);
  for (;;) {
    const axes = pick.map((p, axis) => perAxis[axis][p]);
    yield { coords: axes.map((a) => a.chunk), axes };
    let axis = ndim - 1;
    for (; axis >= 0; axis--) {
      if (++pick[axis] < perAxis[axis].length) break;
      pick[axis] = 0;
    }
    if (axis < 0) return;
  }
}
