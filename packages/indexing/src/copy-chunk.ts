// The chunk-to-output copies: private to the @z packages. copy.ts holds the public side, which the
// package entry re-exports whole.

import type { DataType } from "@z/metadata";
import type { Chunk, Container, StridedView } from "@z/ndarray";
import { copyStrided } from "@z/ndarray";
import { projectionShape } from "./copy.js";
import type { ChunkProjection } from "./projection.js";
import type { AxisSelection } from "./selection.js";

/** The view of a chunk's elements that a projection selects (offset and strides into its data). */
export function chunkView(chunk: Chunk, projection: ChunkProjection): StridedView {
  let offset = 0;
  const stride = projection.axes.map((a, axis) => {
    offset += a.start * chunk.stride[axis];
    return a.step * chunk.stride[axis];
  });
  return { data: chunk.data, offset, stride };
}

/**
 * The view of an output (C order, `outStride` per kept axis) where a projection's elements go.
 * Integer-selected axes have no output axis; they get stride 0 (their count is 1).
 */
export function outputView(
  data: Container,
  outStride: readonly number[],
  selection: readonly AxisSelection[],
  projection: ChunkProjection,
): StridedView {
  let offset = 0;
  let k = 0;
  const stride = projection.axes.map((a, axis) => {
    if (selection[axis].kind === "int") return 0;
    const s = outStride[k++];
    offset += a.outStart * s;
    return s;
  });
  return { data, offset, stride };
}

/** Copies the selected part of a decoded chunk into the output. */
export function copyChunkToOutput(
  chunk: Chunk,
  projection: ChunkProjection,
  out: StridedView,
  lanes: number,
): void {
  copyStrided(chunkView(chunk, projection), out, projectionShape(projection), lanes);
}

/**
 * Writes `value` into every element of a strided region: contiguous runs through
 * `dataType.fill`, the rest element by element.
 */
export function fillRegion(
  dataType: DataType,
  view: StridedView,
  shape: readonly number[],
  value: unknown,
): void {
  const ndim = shape.length;
  if (shape.some((n) => n === 0)) return;
  if (ndim === 0) {
    dataType.setElement(view.data, view.offset, value);
    return;
  }
  const last = ndim - 1;
  const run = shape[last];
  const step = view.stride[last];
  const index = new Array<number>(ndim).fill(0);
  let offset = view.offset;
  for (;;) {
    if (step === 1) dataType.fill(view.data, value, offset, offset + run);
    else
      for (let i = 0, o = offset; i < run; i++, o += step) dataType.setElement(view.data, o, value);
    let axis = last - 1;
    for (; axis >= 0; axis--) {
      index[axis]++;
      offset += view.stride[axis];
      if (index[axis] < shape[axis]) break;
      offset -= view.stride[axis] * shape[axis];
      index[axis] = 0;
    }
    if (axis < 0) return;
  }
}
