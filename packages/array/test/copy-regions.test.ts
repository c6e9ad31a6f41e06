import { copyNode, createArray, openArray } from "@z/array";
import { FsStore } from "@z/store-fs";
import { MemoryStore } from "@z/store-memory";
import { tempDir } from "@z/test-utils";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";

// copyNode's copyRegions: several target chunks (shards) per task, read from the source at
// once, into buffers reused from region to region; the copy must equal the source whatever
// the grids, the region shape and the concurrency.

const folder = tempDir("z-copy-regions-");
afterAll(() => folder.remove());

const product = (xs: readonly number[]) => xs.reduce((a, b) => a * b, 1);

interface Case {
  shape: number[];
  source: number[];
  target: number[];
  shards: number[] | undefined;
  per: number[];
  concurrency: number;
  dtype: "int32" | "bool";
}

const cases = fc
  .array(
    fc.record({
      n: fc.integer({ min: 0, max: 13 }),
      s: fc.integer({ min: 1, max: 6 }),
      t: fc.integer({ min: 1, max: 6 }),
      shard: fc.integer({ min: 1, max: 3 }),
      per: fc.integer({ min: 1, max: 5 }),
    }),
    { minLength: 1, maxLength: 3 },
  )
  .chain((axes) =>
    fc.record({
      shape: fc.constant(axes.map((a) => a.n)),
      source: fc.constant(axes.map((a) => a.s)),
      target: fc.constant(axes.map((a) => a.t)),
      shards: fc.option(fc.constant(axes.map((a) => a.t * a.shard)), { nil: undefined }),
      per: fc.constant(axes.map((a) => a.per)),
      concurrency: fc.integer({ min: 1, max: 3 }),
      dtype: fc.constantFrom("int32" as const, "bool" as const),
    }),
  );

async function check(
  c: Case,
  sourceStore: MemoryStore | FsStore,
  targetStore: MemoryStore | FsStore,
) {
  const size = product(c.shape);
  const source = await createArray(sourceStore, {
    path: "a",
    shape: c.shape,
    chunks: c.source,
    dtype: c.dtype,
    fillValue: c.dtype === "bool" ? true : -1,
  });
  const values =
    c.dtype === "bool"
      ? Array.from({ length: size }, (_, i) => i % 3 === 0)
      : Int32Array.from({ length: size }, (_, i) => i * 7 - 50);
  if (size > 0) await source.set(null, { data: values as Int32Array, shape: c.shape });
  let regions = 0;
  let totals = 0;
  await copyNode(source, targetStore, {
    arrayOptions: (array) => ({
      shape: array.shape,
      dtype: array.dtype,
      chunks: c.target,
      shards: c.shards,
      fillValue: array.fillValue,
    }),
    copyRegions: () => ({ regionChunks: c.per, concurrency: c.concurrency }),
    onProgress: (_, { total }) => {
      regions++;
      totals = total;
    },
  });
  const unit = c.shards ?? c.target;
  const grid = c.shape.map((n, i) => Math.ceil(n / unit[i]));
  const expected = product(grid.map((g, i) => Math.ceil(g / c.per[i])));
  // Chunks stored the same way on both sides are copied as they are stored, chunk by chunk,
  // not in regions: only the values are checked then.
  const asStored = c.shards === undefined && c.source.every((s, i) => s === c.target[i]);
  if (!asStored) {
    expect(regions).toBe(grid.some((g) => g === 0) ? 0 : expected);
    if (regions > 0) expect(totals).toBe(expected);
  }
  const copy = await openArray(targetStore, { path: "a" });
  expect(copy.chunks).toEqual(c.target);
  const back = await copy.get(null);
  expect(Array.from(back.data as ArrayLike<unknown>, Number)).toEqual(
    Array.from(values as ArrayLike<unknown>, Number),
  );
}

describe("copyNode with copyRegions", () => {
  it("copies every element in regions of several target chunks (MemoryStore)", async () => {
    await fc.assert(
      fc.asyncProperty(cases, (c) => check(c, new MemoryStore(), new MemoryStore())),
      { numRuns: 60 },
    );
  });

  it("copies every element in regions of several target chunks (FsStore)", async () => {
    const cases: Case[] = [
      {
        shape: [13, 9],
        source: [4, 5],
        target: [3, 2],
        shards: undefined,
        per: [2, 3],
        concurrency: 2,
        dtype: "int32",
      },
      {
        shape: [10, 7, 3],
        source: [3, 3, 3],
        target: [2, 2, 1],
        shards: [4, 4, 2],
        per: [2, 1, 2],
        concurrency: 3,
        dtype: "int32",
      },
      {
        shape: [11],
        source: [4],
        target: [3],
        shards: undefined,
        per: [2],
        concurrency: 1,
        dtype: "bool",
      },
    ];
    for (const [i, c] of cases.entries()) {
      await check(c, new FsStore(`${folder.dir}/s${i}`), new FsStore(`${folder.dir}/t${i}`));
    }
  });
});
