import { cOrderStrides } from "./memory-layout.js";

/** A half-open range `[begin, end)` of indices (element indices, or byte offsets). */
export type IndexRange = readonly [begin: number, end: number];

/**
 * A strided region of an n-d array, per axis: the first index, the step between indices
 * (positive or negative, never 0) and how many there are. `ChunkRegion` is one.
 */
export interface StridedRegion {
  /** Per axis, the first selected index. */
  readonly start: readonly number[];
  /** Per axis, the step between selected indices. */
  readonly step: readonly number[];
  /** Per axis, how many indices are selected. */
  readonly shape: readonly number[];
}

/** The number of ranges {@link regionElementRanges} returns at most, unless told otherwise. */
export const DEFAULT_MAX_RANGES = 256;

/**
 * The elements of a C-order array of `arrayShape` that `regions` select, as sorted, disjoint,
 * non-adjacent `[begin, end)` ranges of element indices: what a decoder that can produce part of
 * a chunk (blosc, block by block) needs to know. Runs of consecutive elements merge into one
 * range, so a region that is contiguous in memory (a `[z, :, :]` slab) is one range.
 *
 * Cheap whatever the region: when the ranges would number more than `maxRanges`, the answer is
 * one range from the first selected element to the last, without listing them. Ranges are then
 * a superset of the selection; they are never a subset.
 * @throws RangeError when a region's rank differs from the array's, or it reaches outside it
 */
export function regionElementRanges(
  arrayShape: readonly number[],
  regions: readonly StridedRegion[],
  maxRanges = DEFAULT_MAX_RANGES,
): IndexRange[] {
  const limit = Math.max(1, maxRanges);
  const ranges: IndexRange[] = [];
  for (const region of regions) appendRegion(arrayShape, region, limit, ranges);
  return mergeIndexRanges(ranges, limit);
}

/**
 * Sorts `ranges` and merges the ones that overlap or touch; empty ranges are dropped. More than
 * `maxRanges` after merging become one range covering them all.
 */
export function mergeIndexRanges(
  ranges: readonly IndexRange[],
  maxRanges = DEFAULT_MAX_RANGES,
): IndexRange[] {
  const sorted = ranges.filter(([b, e]) => e > b).sort((x, y) => x[0] - y[0]);
  const merged: [number, number][] = [];
  for (const [begin, end] of sorted) {
    const last = merged[merged.length - 1];
    if (last !== undefined && begin <= last[1]) last[1] = Math.max(last[1], end);
    else merged.push([begin, end]);
  }
  if (merged.length > Math.max(1, maxRanges)) return [[merged[0][0], merged[merged.length - 1][1]]];
  return merged;
}

/** Appends one region's runs (or, past twice `limit` runs, its covering range) to `out`. */
function appendRegion(
  shape: readonly number[],
  region: StridedRegion,
  limit: number,
  out: IndexRange[],
): void {
  const ndim = shape.length;
  if (region.start.length !== ndim || region.step.length !== ndim || region.shape.length !== ndim) {
    throw new RangeError(
      `a region of rank ${region.start.length} (start), ${region.step.length} (step), ${region.shape.length} (shape) does not fit an array of rank ${ndim}`,
    );
  }
  if (region.shape.some((n) => n === 0)) return;
  // Reversed axes select the same set as their forward twins; going forward keeps runs sorted.
  const lo: number[] = new Array(ndim);
  const step: number[] = new Array(ndim);
  const count = region.shape;
  for (let a = 0; a < ndim; a++) {
    const s = count[a] === 1 ? 1 : region.step[a];
    const first = s > 0 ? region.start[a] : region.start[a] + (count[a] - 1) * s;
    const last = first + (count[a] - 1) * Math.abs(s);
    if (!Number.isInteger(first) || s === 0 || first < 0 || last >= shape[a] || count[a] < 0) {
      throw new RangeError(
        `axis ${a}: ${count[a]} indices from ${region.start[a]} by ${region.step[a]} are not inside 0..${shape[a] - 1}`,
      );
    }
    lo[a] = first;
    step[a] = Math.abs(s);
  }
  const stride = cOrderStrides(shape);
  // Trailing axes taken whole are one contiguous run per index of the axes before them.
  let k = ndim - 1;
  let inner = 1;
  while (k >= 0 && lo[k] === 0 && count[k] === shape[k]) inner *= shape[k--];
  if (k < 0) {
    out.push([0, inner]);
    return;
  }
  const unitStep = step[k] === 1;
  const run = unitStep ? count[k] * inner : inner;
  let runs = unitStep ? 1 : count[k];
  for (let a = 0; a < k; a++) runs *= count[a];
  // Neighbouring runs may merge, at most two into one (a strided axis's last run with the next
  // row's first): past twice the limit they cannot fit it.
  if (runs > 2 * limit) {
    let begin = 0;
    let end = 1;
    for (let a = 0; a < ndim; a++) {
      begin += lo[a] * stride[a];
      end += (lo[a] + (count[a] - 1) * step[a]) * stride[a];
    }
    out.push([begin, end]);
    return;
  }
  // An odometer over the axes whose indices start a run (axis k too when it is strided).
  const axes = unitStep ? k : k + 1;
  const index = new Array<number>(axes).fill(0);
  let offset = 0;
  for (let a = 0; a < axes; a++) offset += lo[a] * stride[a];
  if (unitStep) offset += lo[k] * stride[k];
  for (;;) {
    const previous = out[out.length - 1];
    if (previous !== undefined && previous[1] === offset)
      out[out.length - 1] = [previous[0], offset + run];
    else out.push([offset, offset + run]);
    let a = axes - 1;
    for (; a >= 0; a--) {
      offset += step[a] * stride[a];
      if (++index[a] < count[a]) break;
      offset -= count[a] * step[a] * stride[a];
      index[a] = 0;
    }
    if (a < 0) return;
  }
}
