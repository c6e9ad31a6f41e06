/**
 * A naive n-d array and naive implementations of every selection mode, used as the reference
 * model the property tests compare the real indexing against. Deliberately simple: one
 * element at a time, no chunks, NumPy's semantics written out.
 */
export class Reference {
  readonly data: unknown[];
  constructor(
    readonly shape: number[],
    data?: unknown[],
  ) {
    this.data = data ?? new Array(shape.reduce((a, b) => a * b, 1)).fill(0);
  }

  flat(index: readonly number[]): number {
    let flat = 0;
    for (let axis = 0; axis < this.shape.length; axis++)
      flat = flat * this.shape[axis] + index[axis];
    return flat;
  }

  /** Positions selected per axis by one orthogonal/basic item, and whether the axis is kept. */
  static axisIndices(item: unknown, length: number): { indices: number[]; kept: boolean } {
    if (item === null || item === undefined) return { indices: range(0, length, 1), kept: true };
    if (typeof item === "number")
      return { indices: [item < 0 ? item + length : item], kept: false };
    if (typeof item === "object" && (item as { kind?: string }).kind === "slice") {
      const s = item as { start: number | null; stop: number | null; step: number | null };
      return { indices: sliceIndices(s.start, s.stop, s.step ?? 1, length), kept: true };
    }
    const list = Array.from(item as ArrayLike<unknown>);
    if (list.length > 0 && typeof list[0] === "boolean") {
      return { indices: list.flatMap((b, i) => (b ? [i] : [])), kept: true };
    }
    return {
      indices: list.map((v) => (Number(v) < 0 ? Number(v) + length : Number(v))),
      kept: true,
    };
  }

  /** The positions (array indices) an orthogonal selection visits in result order, and the result shape. */
  orthogonal(items: readonly unknown[]): { positions: number[][]; shape: number[] } {
    const axes = this.shape.map((length, axis) =>
      Reference.axisIndices(items[axis] ?? null, length),
    );
    const shape = axes.filter((a) => a.kept).map((a) => a.indices.length);
    const positions: number[][] = [];
    const walk = (axis: number, prefix: number[]) => {
      if (axis === axes.length) {
        positions.push(prefix);
        return;
      }
      for (const i of axes[axis].indices) walk(axis + 1, [...prefix, i]);
    };
    walk(0, []);
    return { positions, shape };
  }

  /** The positions of a coordinate selection. */
  coordinates(lists: readonly (readonly number[])[]): number[][] {
    const n = lists[0]?.length ?? 0;
    return Array.from({ length: n }, (_, k) =>
      lists.map((list, axis) => (list[k] < 0 ? list[k] + this.shape[axis] : list[k])),
    );
  }

  /** The positions where a C-order mask is true. */
  mask(mask: readonly boolean[]): number[][] {
    const out: number[][] = [];
    mask.forEach((m, flat) => {
      if (!m) return;
      const index: number[] = [];
      let rest = flat;
      for (let axis = this.shape.length - 1; axis >= 0; axis--) {
        index.unshift(rest % this.shape[axis]);
        rest = Math.floor(rest / this.shape[axis]);
      }
      out.push(index);
    });
    return out;
  }

  read(positions: number[][]): unknown[] {
    return positions.map((p) => this.data[this.flat(p)]);
  }

  /** Writes values in order, so the last write to a repeated position wins (NumPy's rule). */
  write(positions: number[][], values: (k: number) => unknown): void {
    positions.forEach((p, k) => {
      this.data[this.flat(p)] = values(k);
    });
  }
}

export function range(start: number, stop: number, step: number): number[] {
  const out: number[] = [];
  if (step > 0) for (let i = start; i < stop; i += step) out.push(i);
  else for (let i = start; i > stop; i += step) out.push(i);
  return out;
}

/** Python's slice.indices, written the obvious way. */
export function sliceIndices(
  start: number | null,
  stop: number | null,
  step: number,
  length: number,
): number[] {
  const norm = (v: number) => (v < 0 ? v + length : v);
  if (step > 0) {
    const s = start === null ? 0 : Math.min(Math.max(norm(start), 0), length);
    const e = stop === null ? length : Math.min(Math.max(norm(stop), 0), length);
    return range(s, e, step);
  }
  const s = start === null ? length - 1 : Math.min(Math.max(norm(start), -1), length - 1);
  const e = stop === null ? -1 : Math.min(Math.max(norm(stop), -1), length - 1);
  return range(s, e, step);
}
