import { createArray, MemoryStore, slice } from "@z/zarr";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { arrayStats } from "../src/stats/array-stats.js";
import { Histogram } from "../src/stats/histogram.js";
import { addToHistogram, StatsAccumulator } from "../src/stats/numeric-stats.js";
import { StatsUnsupportedError } from "../src/stats/stats-errors.js";

/** The reference model: the bin whose edges hold v (the last bin closed), or -1 outside. */
function binOf(edges: number[], v: number): number {
  const last = edges.length - 2;
  for (let i = 0; i <= last; i++) {
    if (v >= edges[i] && (v < edges[i + 1] || (i === last && v <= edges[i + 1]))) return i;
  }
  return -1;
}

const finite = fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e300, max: 1e300 });

describe("Histogram", () => {
  it("puts every value in the range into the bin whose edges hold it (NumPy's rule)", () => {
    fc.assert(
      fc.property(
        fc.array(finite, { minLength: 1, maxLength: 60 }),
        fc.integer({ min: 1, max: 40 }),
        (values, bins) => {
          const lo = Math.min(...values);
          const hi = Math.max(...values);
          const h = new Histogram(lo, hi, bins);
          // Where bins are as narrow as a few ulps of their values, rounding can make edges
          // equal, and NumPy's one correction step and this ideal model part ways; NumPy's
          // rule is the one kept, so such ranges are left out.
          const width = (h.edges[bins] - h.edges[0]) / bins;
          fc.pre(width > Math.max(Math.abs(lo), Math.abs(hi)) * 2 ** -40);
          for (const v of values) h.add(v);
          const model = new Array<number>(bins).fill(0);
          for (const v of values) model[binOf(h.edges, v)]++;
          expect(h.counts).toEqual(model);
          expect(h.edges[0]).toBe(lo === hi ? lo - 0.5 : lo);
          expect(h.edges[bins]).toBe(lo === hi ? hi + 0.5 : hi);
        },
      ),
      // A range of a few subnormals, where NumPy's scale factor overflows to infinity.
      { examples: [[[0, -5e-324], 1]] },
    );
  });

  it("leaves out NaN and values outside the range", () => {
    const h = new Histogram(0, 10, 5);
    for (const v of [Number.NaN, -1, 11, Number.POSITIVE_INFINITY, 10, 0, 4]) h.add(v);
    expect(h.counts).toEqual([1, 0, 1, 0, 1]);
  });
});

describe("StatsAccumulator", () => {
  it("sums integers exactly and keeps 64-bit extremes exact over any split into chunks", () => {
    const int64 = fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n });
    fc.assert(
      fc.property(
        fc.array(fc.array(int64, { maxLength: 8 }), { minLength: 1, maxLength: 6 }),
        (chunks) => {
          const all = chunks.flat();
          fc.pre(all.length > 0);
          const acc = new StatsAccumulator("int");
          for (const c of chunks) acc.add(BigInt64Array.from(c));
          const result = acc.result(undefined);
          const sorted = [...all].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
          expect(result.min).toBe(sorted[0]);
          expect(result.max).toBe(sorted[sorted.length - 1]);
          const sum = all.reduce((a, b) => a + b, 0n);
          // The mean of the exact sum, to within float64 rounding.
          const exact = Number(sum) / all.length;
          expect(Math.abs((result.mean as number) - exact)).toBeLessThanOrEqual(
            Math.abs(exact) * 1e-15 + 1e-9,
          );
        },
      ),
    );
  });

  it("keeps uint32 sums exact beyond 2^53", () => {
    const acc = new StatsAccumulator("int");
    const chunk = new Uint32Array(1 << 16).fill(2 ** 32 - 1);
    for (let i = 0; i < 40; i++) acc.add(chunk);
    // 40 * 2^16 elements of 2^32 - 1: the sum is beyond float64's exact integers (2^53).
    expect(acc.mean()).toBe(2 ** 32 - 1);
    expect(acc.count).toBe(40 * 2 ** 16);
  });

  it("counts NaN and infinities apart, and takes extremes and the mean as nanmin, nanmax, nanmean do", () => {
    const acc = new StatsAccumulator("float");
    acc.add(Float64Array.of(Number.NaN, 1, 2));
    acc.add(Float32Array.of(Number.NEGATIVE_INFINITY, 5));
    const r = acc.result(acc.histogram(2));
    expect(r).toMatchObject({
      count: 5,
      nanCount: 1,
      infCount: 1,
      min: Number.NEGATIVE_INFINITY,
      max: 5,
    });
    expect(r.mean).toBe(Number.NEGATIVE_INFINITY);
    const histogram = acc.histogram(2) as Histogram;
    addToHistogram(histogram, Float64Array.of(Number.NaN, 1, 2, Number.NEGATIVE_INFINITY, 5));
    expect(histogram.edges).toEqual([1, 3, 5]);
    expect(histogram.counts).toEqual([2, 1]);
    const nans = new StatsAccumulator("float");
    nans.add(Float64Array.of(Number.NaN));
    expect(nans.result(nans.histogram(3))).toMatchObject({
      min: null,
      max: null,
      mean: null,
      histogram: null,
    });
  });
});

describe("arrayStats (MemoryStore)", () => {
  it("equals statistics of the values in memory, missing chunks read as the fill value, sharded or not", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 40 }),
        fc.integer({ min: 1, max: 9 }),
        fc.boolean(),
        fc.integer({ min: -5, max: 5 }),
        fc.array(fc.integer({ min: -1000, max: 1000 }), { minLength: 1, maxLength: 40 }),
        fc.integer({ min: 0, max: 40 }),
        async (n, chunk, sharded, fill, written, start) => {
          const array = await createArray(new MemoryStore(), {
            shape: [n],
            chunks: [chunk],
            shards: sharded ? [chunk * 2] : undefined,
            dtype: "int32",
            fillValue: fill,
          });
          const values = new Array<number>(n).fill(fill);
          const from = Math.min(start, n - 1);
          const part = written.slice(0, n - from);
          part.forEach((v, i) => {
            values[from + i] = v;
          });
          await array.set([slice(from, from + part.length)], Int32Array.from(part));
          const stats = await arrayStats(array, { bins: 4, regionBytes: 8 });
          expect(stats.count).toBe(n);
          expect(stats.min).toBe(Math.min(...values));
          expect(stats.max).toBe(Math.max(...values));
          expect(stats.mean).toBeCloseTo(values.reduce((a, b) => a + b, 0) / n, 9);
          const histogram = new Histogram(Math.min(...values), Math.max(...values), 4);
          for (const v of values) histogram.add(v);
          expect(stats.histogram).toEqual({ edges: histogram.edges, counts: histogram.counts });
        },
      ),
      { numRuns: 40 },
    );
  });

  it("says why complex arrays have no statistics", async () => {
    const array = await createArray(new MemoryStore(), {
      path: "c",
      shape: [2],
      dtype: "complex128",
    });
    await expect(arrayStats(array)).rejects.toThrow(StatsUnsupportedError);
    await expect(arrayStats(array)).rejects.toThrow(
      /\/c is complex128: complex numbers have no order/,
    );
  });
});
