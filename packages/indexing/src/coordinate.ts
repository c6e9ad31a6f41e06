import type { ChunkAxis, DataType } from "@z/metadata";
import type { Chunk, Container } from "@z/ndarray";
import { type ChunkLayout, chunkAxes, elementsInside } from "./chunk-layout.js";
import { SelectionError } from "./errors.js";
import { type IndexArray, type Mask, maskCoordinates, resolveIndexArray } from "./index-arrays.js";
import type { ChunkPart, Indexer, WriteSource } from "./indexer.js";
import { normalizeIndex } from "./selection-index.js";

/** A coordinate selection: one index list per axis (all the same length), or a single integer to repeat. */
export type CoordinateSelection = readonly (IndexArray | number)[];

/**
 * The indexer of a coordinate ("vectorized", "point") selection, as zarr-python's
 * `get_coordinate_selection`: point `k` is `(sel[0][k], sel[1][k], ...)`; the result is 1-d with
 * one element per point, in the order given. Points may repeat and come in any order; when a
 * write repeats a point, the last value wins, as in NumPy.
 */
export class CoordinateIndexer implements Indexer {
  readonly shape: readonly number[];
  /** Point coordinates, one list per axis. */
  private readonly points: Int32Array[];
  private readonly chunkAxes: ChunkAxis[];

  /** @throws BoundsError, SelectionError */
  constructor(
    selection: CoordinateSelection | { coordinates: Int32Array[] },
    arrayShape: readonly number[],
    layout: ChunkLayout,
  ) {
    this.chunkAxes = chunkAxes(layout);
    if ("coordinates" in selection) {
      this.points = selection.coordinates;
    } else {
      if (selection.length !== arrayShape.length) {
        throw new SelectionError(
          `A coordinate selection needs one index list per dimension (${arrayShape.length}), got ${selection.length}`,
        );
      }
      const lengths = selection
        .filter((s) => typeof s !== "number")
        .map((s) => (s as IndexArray).length);
      const n = lengths.length === 0 ? 1 : lengths[0];
      if (lengths.some((len) => len !== n)) {
        throw new SelectionError(
          `The index lists of a coordinate selection must have the same length, got [${lengths}]`,
        );
      }
      this.points = selection.map((s, axis) =>
        typeof s === "number"
          ? new Int32Array(n).fill(normalizeIndex(s, arrayShape[axis], axis))
          : resolveIndexArray(s, arrayShape[axis], axis),
      );
    }
    this.shape = [this.points[0]?.length ?? 1];
  }

  /**
   * The indexer of a mask selection (zarr-python's `get_mask_selection`): the elements where an
   * n-d boolean mask of the array's shape is true, in C order, as a 1-d result.
   * @throws SelectionError when the mask's shape differs from the array's
   */
  static fromMask(
    mask: Mask,
    arrayShape: readonly number[],
    layout: ChunkLayout,
  ): CoordinateIndexer {
    return new CoordinateIndexer(
      { coordinates: maskCoordinates(mask, arrayShape) },
      arrayShape,
      layout,
    );
  }

  private groups(): Map<string, { coords: number[]; positions: number[] }> {
    const ndim = this.points.length;
    const groups = new Map<string, { coords: number[]; positions: number[] }>();
    const n = this.shape[0];
    for (let p = 0; p < n; p++) {
      const coords = new Array<number>(ndim);
      for (let axis = 0; axis < ndim; axis++)
        coords[axis] = this.chunkAxes[axis].chunkOf(this.points[axis][p]);
      const key = coords.join(",");
      let group = groups.get(key);
      if (!group) groups.set(key, (group = { coords, positions: [] }));
      group.positions.push(p);
    }
    return groups;
  }

  *parts(): Iterable<ChunkPart> {
    if (this.points.length === 0) {
      yield new PointsPart([], new Int32Array(0), Int32Array.of(0));
      return;
    }
    const ordered = [...this.groups().values()].sort((a, b) => compareCoords(a.coords, b.coords));
    const ndim = this.points.length;
    for (const { coords, positions } of ordered) {
      const inChunk = new Int32Array(positions.length * ndim);
      positions.forEach((p, i) => {
        for (let axis = 0; axis < ndim; axis++) {
          inChunk[i * ndim + axis] =
            this.points[axis][p] - this.chunkAxes[axis].start(coords[axis]);
        }
      });
      yield new PointsPart(coords, inChunk, Int32Array.from(positions));
    }
  }

  partCount(): number {
    return this.points.length === 0 ? 1 : this.groups().size;
  }
}

function compareCoords(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return 0;
}

class PointsPart implements ChunkPart {
  constructor(
    readonly coords: readonly number[],
    /** In-chunk coordinates, `ndim` per point. */
    private readonly inChunk: Int32Array,
    /** Each point's position in the 1-d result. */
    private readonly positions: Int32Array,
  ) {}

  private offset(chunk: Chunk, point: number): number {
    const ndim = this.coords.length;
    let offset = 0;
    for (let axis = 0; axis < ndim; axis++)
      offset += this.inChunk[point * ndim + axis] * chunk.stride[axis];
    return offset;
  }

  read(chunk: Chunk, out: Container, lanes: number): void {
    const src = chunk.data as unknown[];
    const dst = out as unknown[];
    for (let p = 0; p < this.positions.length; p++) {
      const s = this.offset(chunk, p) * lanes;
      const d = this.positions[p] * lanes;
      for (let k = 0; k < lanes; k++) dst[d + k] = src[s + k];
    }
  }

  fill(out: Container, dataType: DataType, value: unknown): void {
    for (const position of this.positions) dataType.setElement(out, position, value);
  }

  write(chunk: Chunk, source: WriteSource, dataType: DataType): void {
    const lanes = dataType.lanes;
    for (let p = 0; p < this.positions.length; p++) {
      const target = this.offset(chunk, p);
      if ("scalar" in source) {
        dataType.setElement(chunk.data, target, source.scalar);
        continue;
      }
      const value = source.chunk;
      const s = this.positions[p] * (value.stride[0] ?? 1) * lanes;
      for (let k = 0; k < lanes; k++)
        (chunk.data as unknown[])[target * lanes + k] = (value.data as unknown[])[s + k];
    }
  }

  covers(layout: ChunkLayout, arrayShape: readonly number[]): boolean {
    const ndim = this.coords.length;
    const axes = chunkAxes(layout);
    const sizes = axes.map((a, axis) => a.size(this.coords[axis]));
    let inside = 1;
    for (let axis = 0; axis < ndim; axis++) {
      inside *= elementsInside(axes[axis], this.coords[axis], arrayShape[axis]);
    }
    const distinct = new Set<number>();
    for (let p = 0; p < this.positions.length; p++) {
      let flat = 0;
      for (let axis = 0; axis < ndim; axis++)
        flat = flat * sizes[axis] + this.inChunk[p * ndim + axis];
      distinct.add(flat);
    }
    return distinct.size === inside;
  }
}
