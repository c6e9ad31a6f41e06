// The element ranges of strided regions against a reference model that marks every selected
// element of the array one index at a time: the ranges are sorted, disjoint and non-adjacent,
// cover exactly the marked elements when there are few enough, and one range from the first to
// the last marked element when there are not.
import {
  cOrderStrides,
  type IndexRange,
  mergeIndexRanges,
  product,
  regionElementRanges,
  type StridedRegion,
} from "@z/ndarray";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

/** Marks the elements a region selects, walking every index. */
function mark(shape: readonly number[], region: StridedRegion, marked: Uint8Array): void {
  const stride = cOrderStrides(shape);
  const walk = (axis: number, offset: number): void => {
    if (axis === shape.length) {
      marked[offset] = 1;
      return;
    }
    for (let i = 0; i < region.shape[axis]; i++)
      walk(axis + 1, offset + (region.start[axis] + i * region.step[axis]) * stride[axis]);
  };
  walk(0, 0);
}

/** The maximal runs of marked elements. */
function runsOf(marked: Uint8Array): IndexRange[] {
  const runs: IndexRange[] = [];
  for (let i = 0; i < marked.length; ) {
    if (!marked[i]) {
      i++;
      continue;
    }
    let j = i;
    while (j < marked.length && marked[j]) j++;
    runs.push([i, j]);
    i = j;
  }
  return runs;
}

/** A shape and some strided regions inside it (steps of either sign, counts from 0). */
const regionsInShape = fc
  .array(fc.integer({ min: 1, max: 7 }), { minLength: 0, maxLength: 4 })
  .chain((shape) => {
    const axis = (n: number) =>
      fc
        .record({
          a: fc.integer({ min: 0, max: n - 1 }),
          b: fc.integer({ min: 0, max: n - 1 }),
          step: fc.integer({ min: 1, max: 3 }),
          reverse: fc.boolean(),
          empty: fc.boolean(),
        })
        .map(({ a, b, step, reverse, empty }) => {
          const [first, last] = a <= b ? [a, b] : [b, a];
          const count = empty ? 0 : Math.floor((last - first) / step) + 1;
          return reverse
            ? { start: first + (count - 1) * step, step: -step, count }
            : { start: first, step, count };
        });
    const region = fc
      .tuple(...shape.map((n) => fc.oneof(axis(n), fc.constant({ start: 0, step: 1, count: n }))))
      .map((axes) => ({
        start: axes.map((x) => (x.count === 0 ? 0 : x.start)),
        step: axes.map((x) => x.step),
        shape: axes.map((x) => x.count),
      }));
    return fc.tuple(fc.constant(shape), fc.array(region, { minLength: 0, maxLength: 3 }));
  });

describe("regionElementRanges", () => {
  it("covers exactly the selected elements, merged, when they fit the cap", () => {
    fc.assert(
      fc.property(regionsInShape, fc.integer({ min: 1, max: 40 }), ([shape, regions], cap) => {
        const marked = new Uint8Array(product(shape));
        for (const region of regions) mark(shape, region, marked);
        const runs = runsOf(marked);
        const ranges = regionElementRanges(shape, regions, cap);
        // A region whose own runs pass the cap is taken as its covering range, cheaply.
        const eachFits = regions.every((region) => {
          const own = new Uint8Array(marked.length);
          mark(shape, region, own);
          return runsOf(own).length <= cap;
        });
        if (runs.length === 0) expect(ranges).toEqual([]);
        else if (runs.length <= cap && eachFits) expect(ranges).toEqual(runs);
        else {
          // Over the cap: at most `cap` sorted ranges inside the array, covering every run.
          expect(ranges.length).toBeGreaterThan(0);
          expect(ranges.length).toBeLessThanOrEqual(cap);
          ranges.forEach(([begin, end], i) => {
            expect(begin).toBeLessThan(end);
            expect(begin).toBeGreaterThanOrEqual(i === 0 ? 0 : ranges[i - 1][1] + 1);
            expect(end).toBeLessThanOrEqual(marked.length);
          });
          for (const [begin, end] of runs)
            expect(ranges.some(([b, e]) => b <= begin && end <= e)).toBe(true);
        }
      }),
      { numRuns: 500 },
    );
  });

  it("gives one range for a slab of a C-order chunk and one per row for a column plane", () => {
    const shape = [64, 64, 64];
    const slab = { start: [5, 0, 0], step: [1, 1, 1], shape: [1, 64, 64] };
    expect(regionElementRanges(shape, [slab])).toEqual([[5 * 4096, 6 * 4096]]);
    const plane = { start: [0, 7, 0], step: [1, 1, 1], shape: [64, 1, 64] };
    const ranges = regionElementRanges(shape, [plane]);
    expect(ranges.length).toBe(64);
    expect(ranges[1]).toEqual([4096 + 7 * 64, 4096 + 8 * 64]);
    // 4096 single elements are over the default cap: one covering range.
    const column = { start: [0, 0, 3], step: [1, 1, 1], shape: [64, 64, 1] };
    expect(regionElementRanges(shape, [column])).toEqual([[3, 64 ** 3 - 60]]);
    expect(regionElementRanges(shape, [column], 5000).length).toBe(4096);
  });

  it("rejects a region of the wrong rank or outside the array", () => {
    expect(() => regionElementRanges([4, 4], [{ start: [0], step: [1], shape: [1] }])).toThrowError(
      RangeError,
    );
    expect(() =>
      regionElementRanges([4, 4], [{ start: [0, 2], step: [1, 1], shape: [1, 3] }]),
    ).toThrowError(/axis 1/);
    expect(() =>
      regionElementRanges([4, 4], [{ start: [0, 1], step: [1, -1], shape: [1, 3] }]),
    ).toThrowError(/axis 1/);
  });
});

describe("mergeIndexRanges", () => {
  it("sorts and merges overlapping and touching ranges, drops empty ones", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat(60), fc.nat(12)), { maxLength: 20 }),
        fc.integer({ min: 1, max: 10 }),
        (pairs, cap) => {
          const ranges = pairs.map(([b, n]): IndexRange => [b, b + n]);
          const marked = new Uint8Array(80);
          for (const [b, e] of ranges) marked.fill(1, b, e);
          const runs = runsOf(marked);
          const merged = mergeIndexRanges(ranges, cap);
          if (runs.length <= cap) expect(merged).toEqual(runs);
          else expect(merged).toEqual([[runs[0][0], runs[runs.length - 1][1]]]);
        },
      ),
    );
  });
});
