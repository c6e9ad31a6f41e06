// The per-axis projections: private to the @z packages. projection.ts holds the public side, which the
// package entry re-exports whole.
import { type ChunkAxis, ChunkGridError } from "@z/metadata";
import { type ChunkLayout, chunkAxes, elementsInside } from "./chunk-layout.js";
import type { AxisProjection, ChunkProjection } from "./projection.js";
import type { AxisSelection } from "./selection.js";

/**
 * Splits one axis's selection into the chunks it touches, visiting chunks in the order the
 * selection walks them (so reversed slices visit chunks backwards) and skipping chunks a
 * large step jumps over.
 */
export function projectAxis(
  selection: AxisSelection,
  chunkAxis: number | ChunkAxis,
): AxisProjection[] {
  const [axis] = chunkAxes([chunkAxis]);
  if (selection.kind === "int") {
    const chunk = axis.chunkOf(selection.index);
    return [{ chunk, start: selection.index - axis.start(chunk), step: 1, count: 1, outStart: 0 }];
  }
  const { start, step, count } = selection;
  const out: AxisProjection[] = [];
  for (let k = 0; k < count; ) {
    const index = start + k * step;
    const chunk = axis.chunkOf(index);
    const chunkStart = axis.start(chunk);
    const chunkSize = axis.size(chunk);
    // A grid whose answers disagree would otherwise make no progress here.
    if (!(index >= chunkStart && index < chunkStart + chunkSize)) {
      throw new ChunkGridError(
        `The chunk grid puts element ${index} in chunk ${chunk}, which covers ${chunkStart}..${chunkStart + chunkSize - 1}`,
      );
    }
    // The last k whose index still falls in this chunk.
    const last =
      step > 0
        ? Math.floor((chunkStart + chunkSize - 1 - start) / step)
        : Math.floor((start - chunkStart) / -step);
    const end = Math.min(count - 1, last);
    out.push({ chunk, start: index - chunkStart, step, count: end - k + 1, outStart: k });
    k = end + 1;
  }
  return out;
}

/** The number of chunks a selection touches. */
export function countChunkProjections(
  selection: readonly AxisSelection[],
  layout: ChunkLayout,
): number {
  let n = 1;
  selection.forEach((s, axis) => {
    n *= projectAxis(s, layout[axis]).length;
  });
  return n;
}

/**
 * Whether a projection covers every element of its chunk that lies inside the array, so a
 * write can replace the chunk without reading it first.
 */
export function coversChunk(
  projection: ChunkProjection,
  layout: ChunkLayout,
  arrayShape: readonly number[],
): boolean {
  const axes = chunkAxes(layout);
  return projection.axes.every((a, axis) => {
    const inside = elementsInside(axes[axis], a.chunk, arrayShape[axis]);
    if (a.count !== inside) return false;
    return inside === 1 || Math.abs(a.step) === 1;
  });
}
