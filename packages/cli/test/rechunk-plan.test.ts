import { createArray, MemoryStore } from "@z/zarr";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { rechunkRegions, regionBudget } from "../src/commands/rechunk.js";
import { parseByteSize } from "../src/rechunk/byte-size.js";
import { chunksForBytes } from "../src/rechunk/chunk-bytes.js";
import { planRegions, regionCost } from "../src/rechunk/region-plan.js";

const product = (xs: readonly number[]) => xs.reduce((a, b) => a * b, 1);
const shapes = fc.array(fc.integer({ min: 0, max: 5000 }), { maxLength: 4 });

describe("chunksForBytes (--chunk-bytes)", () => {
  it("fits the bytes, stays within the shape, and takes short axes whole", () => {
    fc.assert(
      fc.property(
        shapes,
        fc.constantFrom(1, 2, 4, 8),
        fc.integer({ min: 1, max: 2 ** 24 }),
        (shape, itemSize, bytes) => {
          const chunks = chunksForBytes(shape, itemSize, bytes);
          expect(chunks.length).toBe(shape.length);
          chunks.forEach((n, axis) => {
            expect(n).toBeGreaterThanOrEqual(1);
            expect(n).toBeLessThanOrEqual(Math.max(1, shape[axis]));
          });
          // At most the bytes, unless one element is already more.
          if (itemSize <= bytes) expect(product(chunks) * itemSize).toBeLessThanOrEqual(bytes);
          // An array that fits is one chunk.
          if (product(shape.map((n) => Math.max(1, n))) * itemSize <= bytes)
            expect(chunks).toEqual(shape.map((n) => Math.max(1, n)));
          // Cut axes are within one of each other: the chunk is as close to a cube as it can be.
          const cut = chunks.filter((n, axis) => n < shape[axis]);
          if (cut.length > 1)
            expect(Math.max(...cut) - Math.min(...cut)).toBeLessThanOrEqual(
              Math.max(1, Math.ceil(Math.max(...cut) * 0.5)),
            );
        },
      ),
    );
  });

  it("gives examples the docs show", () => {
    expect(chunksForBytes([10_000_000], 8, 4 * 2 ** 20)).toEqual([524288]);
    expect(chunksForBytes([10_000, 10_000], 4, 4 * 2 ** 20)).toEqual([1024, 1024]);
    expect(chunksForBytes([3, 10_000, 10_000], 4, 4 * 2 ** 20)).toEqual([3, 591, 591]);
    expect(chunksForBytes([], 8, 100)).toEqual([]);
  });
});

describe("planRegions", () => {
  const axis = fc.record({
    n: fc.integer({ min: 1, max: 4000 }),
    s: fc.integer({ min: 1, max: 600 }),
    w: fc.integer({ min: 1, max: 600 }),
  });
  it("keeps a region within the budget, of whole write units, aligned to both grids when that fits", () => {
    fc.assert(
      fc.property(
        fc.array(axis, { minLength: 1, maxLength: 3 }),
        fc.integer({ min: 1, max: 2 ** 26 }),
        (axes, budget) => {
          const inputs = {
            shape: axes.map((a) => a.n),
            itemSize: 4,
            sourceChunks: axes.map((a) => a.s),
            writeUnit: axes.map((a) => a.w),
            budget,
          };
          const plan = planRegions(inputs);
          const smallest = regionCost(
            inputs,
            axes.map(() => 1),
          );
          if (plan === undefined) {
            expect(smallest).toBeGreaterThan(budget);
            return;
          }
          expect(plan.regionBytes).toBeLessThanOrEqual(budget);
          expect(plan.concurrency * plan.regionBytes <= budget || plan.concurrency === 1).toBe(
            true,
          );
          plan.regionChunks.forEach((k, i) => {
            expect(k).toBeGreaterThanOrEqual(1);
            expect(k).toBeLessThanOrEqual(Math.ceil(axes[i].n / axes[i].w));
            // Aligned: each region boundary inside the array is a source chunk boundary.
            const extent = k * axes[i].w;
            if (plan.aligned && extent < axes[i].n) expect(extent % axes[i].s).toBe(0);
          });
        },
      ),
    );
  });

  it("grows a region toward the aligned one when the whole of it does not fit", () => {
    // Row strips into column strips: the aligned region is the whole 1 GiB array.
    const inputs = {
      shape: [32768, 32768],
      itemSize: 1,
      sourceChunks: [256, 32768],
      writeUnit: [32768, 256],
      budget: 96 * 2 ** 20,
    };
    const plan = planRegions(inputs);
    expect(plan?.aligned).toBe(false);
    expect(plan?.regionChunks[0]).toBe(1);
    expect(plan?.regionChunks[1]).toBeGreaterThan(1);
    expect(plan?.regionBytes).toBeLessThanOrEqual(inputs.budget);
  });
});

describe("--max-memory and sizes", () => {
  it("reads sizes as people write them and refuses others", () => {
    expect(parseByteSize("x", "4MiB")).toBe(4 * 2 ** 20);
    expect(parseByteSize("x", "1.5 GiB")).toBe(1.5 * 2 ** 30);
    expect(parseByteSize("x", "256mb")).toBe(256e6);
    expect(parseByteSize("x", "65536")).toBe(65536);
    for (const bad of ["", "-1", "4 parsecs", "0", "MiB", "1e3"])
      expect(() => parseByteSize("max-memory", bad)).toThrow(
        /--max-memory must be a size in bytes/,
      );
  });

  it("refuses a budget one destination chunk cannot fit, naming the array", async () => {
    const store = new MemoryStore();
    const source = await createArray(store, {
      path: "a",
      shape: [4096, 4096],
      chunks: [4096, 4096],
      dtype: "float64",
    });
    expect(regionBudget(256 * 2 ** 20)).toBe(80 * 2 ** 20);
    // A 128 MiB chunk read and written whole needs far more than 256 MiB leaves.
    expect(() => rechunkRegions(source, source, 256 * 2 ** 20)).toThrow(
      /Cannot copy \/a with --max-memory 256 MiB: .*raise --max-memory/,
    );
    expect(rechunkRegions(source, source, 2 * 2 ** 30).concurrency).toBe(1);
  });
});
