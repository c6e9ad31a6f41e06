import { createArray, createGroup, MemoryStore, openArray, openGroup } from "@z/zarr";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { EXACT, elementsEqual, type Tolerance } from "../src/compare/element-equality.js";
import { compareNodes } from "../src/compare/node-comparison.js";
import { blockShape, blocksOf, indexInBlock } from "../src/compare/value-blocks.js";

/** NumPy's isclose for one pair of finite or non-finite doubles: the reference model. */
function isclose(a: number, b: number, { rtol, atol, equalNan }: Tolerance): boolean {
  if (Number.isNaN(a) || Number.isNaN(b)) return equalNan && Number.isNaN(a) && Number.isNaN(b);
  if (!Number.isFinite(a) || !Number.isFinite(b)) return a === b;
  return Math.abs(a - b) <= atol + rtol * Math.abs(b);
}

const double = fc.oneof(
  fc.double(),
  fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 0, -0),
);
const tolerance = fc.record({
  rtol: fc.oneof(fc.constant(0), fc.double({ min: 0, max: 1, noNaN: true })),
  atol: fc.oneof(fc.constant(0), fc.double({ min: 0, max: 10, noNaN: true })),
  equalNan: fc.boolean(),
});

describe("element equality", () => {
  it("numbers: NumPy's isclose (|a - b| <= atol + rtol |b|, NaN only with equal_nan)", () => {
    fc.assert(
      fc.property(double, double, tolerance, (a, b, t) => {
        expect(elementsEqual(a, b, t)).toBe(isclose(a, b, t));
        expect(elementsEqual(a, a, t)).toBe(!Number.isNaN(a) || t.equalNan);
      }),
      { numRuns: 2000 },
    );
  });

  it("64-bit integers exactly without a tolerance; complex numbers and records part by part", () => {
    expect(elementsEqual(2n ** 63n - 1n, 2n ** 63n - 2n, EXACT)).toBe(false);
    expect(elementsEqual(2n ** 63n - 1n, 2n ** 63n - 1n, EXACT)).toBe(true);
    expect(elementsEqual(10n, 11n, { ...EXACT, atol: 1 })).toBe(true);
    expect(elementsEqual({ re: 1, im: Number.NaN }, { re: 1, im: Number.NaN }, EXACT)).toBe(false);
    expect(
      elementsEqual(
        { re: 1, im: Number.NaN },
        { re: 1, im: Number.NaN },
        { ...EXACT, equalNan: true },
      ),
    ).toBe(true);
    expect(elementsEqual({ x: 1, y: "a" }, { x: 1.05, y: "a" }, { ...EXACT, atol: 0.1 })).toBe(
      true,
    );
    expect(elementsEqual({ x: 1, y: "a" }, { x: 1, y: "b" }, { ...EXACT, atol: 0.1 })).toBe(false);
    expect(elementsEqual(Uint8Array.of(1, 2), Uint8Array.of(1, 2), EXACT)).toBe(true);
    expect(elementsEqual(Uint8Array.of(1, 2), Uint8Array.of(1, 3), EXACT)).toBe(false);
    expect(elementsEqual("1", 1, EXACT)).toBe(false);
  });
});

describe("blocks of a comparison", () => {
  const shapeAndBlock = fc
    .array(fc.integer({ min: 0, max: 6 }), { maxLength: 4 })
    .chain((shape) =>
      fc.tuple(
        fc.constant(shape),
        fc.tuple(...shape.map((n) => fc.integer({ min: 1, max: Math.max(1, n) }))),
      ),
    );

  it("cover every index exactly once, in C order", () => {
    fc.assert(
      fc.property(shapeAndBlock, ([shape, block]) => {
        const seen: string[] = [];
        for (const b of blocksOf(shape, block)) {
          const n = b.shape.reduce((x, y) => x * y, 1);
          for (let i = 0; i < n; i++) seen.push(indexInBlock(b, i).join(","));
        }
        const size = shape.reduce((x, y) => x * y, 1);
        expect(seen.length).toBe(size);
        expect(new Set(seen).size).toBe(size);
        if (shape.length > 0)
          for (const key of seen)
            expect(key.split(",").every((v, axis) => Number(v) < shape[axis])).toBe(true);
      }),
    );
  });

  it("are the larger of the two arrays' chunks on each axis, cut to the element bound", async () => {
    const store = new MemoryStore();
    const big = await createArray(store, {
      path: "a",
      shape: [100, 300, 50],
      chunks: [40, 300, 50],
      dtype: "uint8",
    });
    const other = await createArray(store, {
      path: "b",
      shape: [100, 300, 50],
      chunks: [50, 7, 1],
      dtype: "uint8",
    });
    expect(blockShape(big)).toEqual([40, 300, 50]);
    expect(blockShape(big, other)).toEqual([50, 300, 50]);
    expect(blockShape(other, other)).toEqual([50, 7, 1]);
    expect(blockShape(big, big, 20_000)).toEqual([1, 300, 50]);
    expect(blockShape(big, big, 10_000)).toEqual([1, 200, 50]);
    for (const max of [1, 7, 999, 15_000])
      expect(blockShape(big, other, max).reduce((x, y) => x * y, 1)).toBeLessThanOrEqual(max);
  });
});

/** An array of `values` (float64, C order) in a MemoryStore, with the given chunks. */
async function float64(
  store: MemoryStore,
  path: string,
  shape: number[],
  chunks: number[],
  values: Float64Array,
  zarrFormat: 2 | 3,
) {
  const array = await createArray(store, {
    path,
    shape,
    chunks,
    dtype: "float64",
    zarrFormat,
    fillValue: 0,
  });
  await array.set(
    shape.map(() => null),
    { data: values, shape },
  );
  return array;
}

describe("compareNodes on MemoryStore arrays of different chunking and format", () => {
  const case_ = fc
    .array(fc.integer({ min: 1, max: 7 }), { minLength: 1, maxLength: 3 })
    .chain((shape) => {
      const size = shape.reduce((a, b) => a * b, 1);
      const chunks = fc.tuple(...shape.map((n) => fc.integer({ min: 1, max: n })));
      return fc.record({
        shape: fc.constant(shape),
        chunksA: chunks,
        chunksB: chunks,
        a: fc.array(fc.integer({ min: -3, max: 3 }), { minLength: size, maxLength: size }),
        changes: fc.array(fc.tuple(fc.nat(size - 1), fc.integer({ min: -3, max: 3 })), {
          maxLength: 4,
        }),
      });
    });

  it("finds exactly the elements a reference finds, in C order, whatever the chunks", async () => {
    await fc.assert(
      fc.asyncProperty(case_, async ({ shape, chunksA, chunksB, a, changes }) => {
        const valuesA = Float64Array.from(a);
        const valuesB = Float64Array.from(a);
        for (const [at, v] of changes) valuesB[at] = v;
        const arrA = await float64(new MemoryStore(), "a", shape, chunksA, valuesA, 2);
        const arrB = await float64(new MemoryStore(), "b", shape, chunksB, valuesB, 3);
        const found = await compareNodes(arrA, arrB, {
          tolerance: EXACT,
          metadataOnly: false,
          limit: 3,
        });
        const differing = [...valuesA.keys()].filter((i) => valuesA[i] !== valuesB[i]);
        expect(found.metadata).toEqual([]);
        expect(found.values.length).toBe(differing.length > 0 ? 1 : 0);
        if (differing.length === 0) return;
        const [v] = found.values;
        expect(v.differing).toBe(differing.length);
        expect(v.compared).toBe(valuesA.length);
        const flat = (index: number[]) => index.reduce((acc, x, axis) => acc * shape[axis] + x, 0);
        expect(v.first.map((d) => flat(d.index))).toEqual(differing.slice(0, 3));
        expect(v.first.map((d) => [d.a, d.b])).toEqual(
          differing.slice(0, 3).map((i) => [valuesA[i], valuesB[i]]),
        );
        expect(v.maxAbsDifference).toBe(
          Math.max(...differing.map((i) => Math.abs(valuesA[i] - valuesB[i]))),
        );
      }),
      { numRuns: 60 },
    );
  });

  it("reports metadata: shape (no values then), data type, attributes, members, node kinds", async () => {
    const store = new MemoryStore();
    await createGroup(store, { path: "x", attributes: { a: 1 } });
    await createGroup(store, { path: "y", attributes: { a: 2 } });
    await createArray(store, { path: "x/same", shape: [2], dtype: "int32" });
    await createArray(store, { path: "y/same", shape: [2], dtype: "int32" });
    await createArray(store, { path: "x/shape", shape: [2], dtype: "int32" });
    await createArray(store, { path: "y/shape", shape: [3], dtype: "int32" });
    await createArray(store, {
      path: "x/type",
      shape: [2],
      dtype: "int32",
      attributes: { u: "K" },
    });
    await createArray(store, {
      path: "y/type",
      shape: [2],
      dtype: "int64",
      attributes: { u: "C" },
    });
    await createArray(store, { path: "x/only", shape: [1], dtype: "int8" });
    await createGroup(store, { path: "x/kind" });
    await createArray(store, { path: "y/kind", shape: [1], dtype: "int8" });
    const [x, y] = await Promise.all([
      openGroup(store, { path: "x" }),
      openGroup(store, { path: "y" }),
    ]);
    const found = await compareNodes(x, y, { tolerance: EXACT, metadataOnly: false, limit: 10 });
    expect(found.metadata.map((d) => [d.path, d.field, d.a, d.b])).toEqual([
      ["/x", "attributes", { a: 1 }, { a: 2 }],
      ["/x/kind", "node_type", "group", "array"],
      ["/x/only", "exists", true, false],
      ["/x/shape", "shape", [2], [3]],
      ["/x/type", "data_type", "int32", "int64"],
      ["/x/type", "attributes", { u: "K" }, { u: "C" }],
    ]);
    expect(found.values).toEqual([]);
    expect([found.arrays, found.groups]).toEqual([3, 1]);
  });

  it("with metadataOnly reads no chunk", async () => {
    const reads: string[] = [];
    class CountingStore extends MemoryStore {
      override get(key: string, options?: Parameters<MemoryStore["get"]>[1]) {
        reads.push(key);
        return super.get(key, options);
      }
    }
    const [storeA, storeB] = [new CountingStore(), new CountingStore()];
    await float64(storeA, "a", [4], [2], Float64Array.of(1, 2, 3, 4), 3);
    await float64(storeB, "b", [4], [3], Float64Array.of(1, 2, 3, 5), 2);
    const [a, b] = await Promise.all([
      openArray(storeA, { path: "a" }),
      openArray(storeB, { path: "b" }),
    ]);
    reads.length = 0;
    const found = await compareNodes(a, b, { tolerance: EXACT, metadataOnly: true, limit: 10 });
    expect(found).toEqual({ arrays: 1, groups: 0, metadata: [], values: [] });
    expect(reads).toEqual([]);
    const values = await compareNodes(a, b, { tolerance: EXACT, metadataOnly: false, limit: 10 });
    expect(values.values[0]).toMatchObject({ differing: 1, first: [{ index: [3], a: 4, b: 5 }] });
    expect(reads.length).toBeGreaterThan(0);
  });
});
