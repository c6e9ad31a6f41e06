/**
 * Where the chunk boundaries lie along one axis of a chunk grid. Regular grids cut every axis
 * at a fixed step; rectilinear grids list the edge lengths one by one. Indexing, reading,
 * writing and resizing only ask these questions, so they work with any grid.
 */
export interface ChunkAxis {
  /** The index of the chunk holding element `index` (which must lie inside {@link ChunkAxis.extent}). */
  chunkOf(index: number): number;
  /** The first element index of chunk `chunk`. */
  start(chunk: number): number;
  /** The edge length of chunk `chunk`: the extent it is stored at. */
  size(chunk: number): number;
  /** How many chunks cover the first `length` elements. */
  count(length: number): number;
  /** The distinct edge lengths along the axis (to check, e.g., that inner chunks divide every shard). */
  edgeLengths(): readonly number[];
  /** How many elements the axis's chunks cover (`Infinity` when the step repeats forever). */
  readonly extent: number;
  /** The largest edge length along the axis. */
  readonly maxSize: number;
  /** The step, when every chunk along the axis has the same edge length. */
  readonly step: number | undefined;
}

/** An axis cut every `step` elements, without end (a `regular` grid, or a bare integer of a `rectilinear` one). */
export class RegularChunkAxis implements ChunkAxis {
  readonly extent = Number.POSITIVE_INFINITY;
  constructor(readonly step: number) {}
  get maxSize(): number {
    return this.step;
  }
  chunkOf(index: number): number {
    return Math.floor(index / this.step);
  }
  start(chunk: number): number {
    return chunk * this.step;
  }
  size(_chunk: number): number {
    return this.step;
  }
  count(length: number): number {
    return Math.ceil(length / this.step);
  }
  edgeLengths(): readonly number[] {
    return [this.step];
  }
}

/** A run of `count` chunks of the same edge length `size`, starting at chunk `firstChunk`, element `firstIndex`. */
interface Run {
  size: number;
  count: number;
  firstChunk: number;
  firstIndex: number;
}

/**
 * An axis cut at listed edge lengths, kept as runs of equal lengths: a run-length encoded
 * `[V, N]` stays one run however large `N` is, so metadata never makes a large allocation.
 * Lookups are a binary search over the runs.
 */
export class ExplicitChunkAxis implements ChunkAxis {
  readonly extent: number;
  readonly maxSize: number;
  readonly step: number | undefined;
  /** The number of chunks the axis declares. */
  readonly chunks: number;
  private readonly runs: Run[] = [];

  /** `runs` lists `[size, count]` pairs in order; sizes and counts are positive integers. */
  constructor(runs: readonly (readonly [number, number])[]) {
    let chunk = 0;
    let index = 0;
    let maxSize = 0;
    for (const [size, count] of runs) {
      const last = this.runs[this.runs.length - 1];
      if (last && last.size === size) last.count += count;
      else this.runs.push({ size, count, firstChunk: chunk, firstIndex: index });
      chunk += count;
      index += size * count;
      maxSize = Math.max(maxSize, size);
    }
    this.chunks = chunk;
    this.extent = index;
    this.maxSize = maxSize;
    this.step = this.runs.length === 1 ? this.runs[0].size : undefined;
  }

  /** The `[size, count]` runs, merged where neighbours have the same size. */
  runList(): [number, number][] {
    return this.runs.map((r) => [r.size, r.count]);
  }

  private runOfIndex(index: number): Run {
    let lo = 0;
    let hi = this.runs.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.runs[mid].firstIndex <= index) lo = mid;
      else hi = mid - 1;
    }
    return this.runs[lo];
  }

  private runOfChunk(chunk: number): Run {
    let lo = 0;
    let hi = this.runs.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.runs[mid].firstChunk <= chunk) lo = mid;
      else hi = mid - 1;
    }
    return this.runs[lo];
  }

  chunkOf(index: number): number {
    const run = this.runOfIndex(index);
    return run.firstChunk + Math.floor((index - run.firstIndex) / run.size);
  }
  start(chunk: number): number {
    const run = this.runOfChunk(chunk);
    return run.firstIndex + (chunk - run.firstChunk) * run.size;
  }
  size(chunk: number): number {
    return this.runOfChunk(chunk).size;
  }
  count(length: number): number {
    return length <= 0 ? 0 : this.chunkOf(Math.min(length, this.extent) - 1) + 1;
  }
  edgeLengths(): readonly number[] {
    return [...new Set(this.runs.map((r) => r.size))];
  }
}

/**
 * The edge lengths of the chunk at grid coordinates `coords` of a grid made of `axes`: what a
 * chunk grid's `chunkShapeAt` returns, for grids registered with `registerChunkGrid`.
 */
export function chunkShapeAt(axes: readonly ChunkAxis[], coords: readonly number[]): number[] {
  return axes.map((axis, i) => axis.size(coords[i]));
}
