import type { ChunkAxis, DataType } from "@z/metadata";
import type { Chunk, Container } from "@z/ndarray";
import { cOrderStrides } from "@z/ndarray";
import { type ChunkLayout, chunkAxes, elementsInside } from "./chunk-layout.js";
import { SelectionError } from "./errors.js";
import { copyByOffsets, forEachOffset, scaled } from "./gather.js";
import {
  type AxisMask,
  type IndexArray,
  isAxisMask,
  isIndexArray,
  maskIndices,
  resolveIndexArray,
} from "./index-arrays.js";
import type { ChunkPart, Indexer, WriteSource } from "./indexer.js";
import { projectAxis } from "./projection-internal.js";
import { normalizeIndex } from "./selection-index.js";
import { isSlice, type Slice } from "./slice.js";
import { resolveSlice } from "./slice-resolve.js";

/** One item of an orthogonal selection: an integer, a slice, `null`, index array or boolean mask. */
export type OrthogonalItem = number | Slice | null | IndexArray | AxisMask;

type Axis =
  | { kind: "int"; index: number }
  | { kind: "slice"; start: number; step: number; count: number }
  | { kind: "array"; indices: Int32Array };

/** The part of one axis's selection that falls in one chunk. */
interface AxisGroup {
  chunk: number;
  /** Indices inside the chunk, in selection order. */
  inChunk: Int32Array;
  /** Their positions along the output axis (0 for an integer-selected axis). */
  outPos: Int32Array;
}

function normalizeAxis(item: OrthogonalItem, length: number, axis: number): Axis {
  if (item === null) return { kind: "slice", start: 0, step: 1, count: length };
  if (typeof item === "number") return { kind: "int", index: normalizeIndex(item, length, axis) };
  if (isSlice(item)) return { kind: "slice", ...resolveSlice(item, length, axis) };
  if (isAxisMask(item)) return { kind: "array", indices: maskIndices(item, length, axis) };
  if (isIndexArray(item)) return { kind: "array", indices: resolveIndexArray(item, length, axis) };
  throw new SelectionError(
    `Axis ${axis}: cannot select with ${String(item)}; use an integer, slice(), null, an index array or a boolean mask`,
  );
}

function groupAxis(selection: Axis, chunkAxis: ChunkAxis): AxisGroup[] {
  if (selection.kind !== "array") {
    const basic =
      selection.kind === "int" ? { kind: "int" as const, index: selection.index } : selection;
    return projectAxis(basic, chunkAxis).map((p) => ({
      chunk: p.chunk,
      inChunk: Int32Array.from({ length: p.count }, (_, k) => p.start + k * p.step),
      outPos: Int32Array.from({ length: p.count }, (_, k) =>
        selection.kind === "int" ? 0 : p.outStart + k,
      ),
    }));
  }
  const byChunk = new Map<number, { inChunk: number[]; outPos: number[] }>();
  selection.indices.forEach((index, position) => {
    const chunk = chunkAxis.chunkOf(index);
    let group = byChunk.get(chunk);
    if (!group) byChunk.set(chunk, (group = { inChunk: [], outPos: [] }));
    group.inChunk.push(index - chunkAxis.start(chunk));
    group.outPos.push(position);
  });
  return [...byChunk]
    .sort(([a], [b]) => a - b)
    .map(([chunk, g]) => ({
      chunk,
      inChunk: Int32Array.from(g.inChunk),
      outPos: Int32Array.from(g.outPos),
    }));
}

/**
 * The indexer of an orthogonal ("outer") selection, as zarr-python's `get_orthogonal_selection`
 * and NumPy's `np.ix_`: each axis is selected independently by an integer, a slice, an index
 * array (negative, repeated and unsorted indices allowed) or a boolean mask; the result has one
 * axis per non-integer item. The selection is a list with one item per axis (fewer are padded
 * with whole axes). When a write repeats an index, the last value wins, as in NumPy.
 */
export class OrthogonalIndexer implements Indexer {
  readonly shape: readonly number[];
  private readonly axes: Axis[];
  private readonly outStride: number[];
  /** Output stride per array axis (0 for integer-selected axes). */
  private readonly axisOutStride: number[];
  private readonly chunkAxes: ChunkAxis[];

  /** @throws BoundsError, SelectionError */
  constructor(
    selection: readonly OrthogonalItem[] | OrthogonalItem,
    arrayShape: readonly number[],
    layout: ChunkLayout,
  ) {
    this.chunkAxes = chunkAxes(layout);
    // A plain array is always the list of per-axis items: `[[0, 2]]` selects indices 0 and 2
    // of axis 0, while `[0, 2]` is the integer 0 on axis 0 and 2 on axis 1.
    const items = Array.isArray(selection) ? selection : [selection];
    if (items.length > arrayShape.length) {
      throw new SelectionError(
        `Too many indices: the array has ${arrayShape.length} dimensions but the selection has ${items.length}`,
      );
    }
    this.axes = arrayShape.map((length, axis) =>
      normalizeAxis((items[axis] ?? null) as OrthogonalItem, length, axis),
    );
    this.shape = this.axes
      .filter((a) => a.kind !== "int")
      .map((a) => (a.kind === "slice" ? a.count : (a as { indices: Int32Array }).indices.length));
    this.outStride = cOrderStrides(this.shape);
    let k = 0;
    this.axisOutStride = this.axes.map((a) => (a.kind === "int" ? 0 : this.outStride[k++]));
  }

  *parts(): Iterable<ChunkPart> {
    const perAxis = this.axes.map((a, axis) => groupAxis(a, this.chunkAxes[axis]));
    if (perAxis.some((groups) => groups.length === 0)) return;
    const pick = new Array<number>(perAxis.length).fill(0);
    for (;;) {
      yield new OrthogonalPart(
        pick.map((p, axis) => perAxis[axis][p]),
        this.axisOutStride,
      );
      let axis = perAxis.length - 1;
      for (; axis >= 0; axis--) {
        if (++pick[axis] < perAxis[axis].length) break;
        pick[axis] = 0;
      }
      if (axis < 0) return;
    }
  }

  partCount(): number {
    return this.axes.reduce((n, a, axis) => n * groupAxis(a, this.chunkAxes[axis]).length, 1);
  }
}

class OrthogonalPart implements ChunkPart {
  readonly coords: readonly number[];
  constructor(
    private readonly groups: readonly AxisGroup[],
    private readonly axisOutStride: readonly number[],
  ) {
    this.coords = groups.map((g) => g.chunk);
  }

  private outOffsets(stride: readonly number[]): Float64Array[] {
    return this.groups.map((g, axis) => scaled(g.outPos, stride[axis]));
  }
  private chunkOffsets(chunk: Chunk): Float64Array[] {
    return this.groups.map((g, axis) => scaled(g.inChunk, chunk.stride[axis]));
  }

  read(chunk: Chunk, out: Container, lanes: number): void {
    copyByOffsets(
      chunk.data,
      0,
      this.chunkOffsets(chunk),
      out,
      0,
      this.outOffsets(this.axisOutStride),
      lanes,
    );
  }

  fill(out: Container, dataType: DataType, value: unknown): void {
    forEachOffset(0, this.outOffsets(this.axisOutStride), (o) =>
      dataType.setElement(out, o, value),
    );
  }

  write(chunk: Chunk, source: WriteSource, dataType: DataType): void {
    const target = this.chunkOffsets(chunk);
    if ("scalar" in source) {
      forEachOffset(0, target, (o) => dataType.setElement(chunk.data, o, source.scalar));
      return;
    }
    const value = source.chunk;
    let k = 0;
    const valueStride = this.axisOutStride.map((s) => (s === 0 ? 0 : value.stride[k++]));
    copyByOffsets(
      value.data,
      0,
      this.outOffsets(valueStride),
      chunk.data,
      0,
      target,
      dataType.lanes,
    );
  }

  covers(layout: ChunkLayout, arrayShape: readonly number[]): boolean {
    const axes = chunkAxes(layout);
    return this.groups.every((g, axis) => {
      const inside = elementsInside(axes[axis], g.chunk, arrayShape[axis]);
      return new Set(g.inChunk).size === inside;
    });
  }
}
