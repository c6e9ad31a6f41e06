import {
  createArray,
  createGroup,
  open,
  openArray,
  openGroup,
  ValueShapeError,
  ZarrArray,
} from "@z/array";
import { BoundsError, SelectionError, slice } from "@z/indexing";
import { describe, expect, it } from "vitest";
import { decodeJsonText } from "./helpers.js";
import { mapStoreArray } from "./map-store-array.js";

describe("create, write, read", () => {
  for (const zarrFormat of [2, 3] as const) {
    it(`round-trips a 2-d int16 array (v${zarrFormat})`, async () => {
      const store = new Map<string, Uint8Array>();
      const arr = await createArray(store, {
        shape: [5, 7],
        chunks: [2, 3],
        dtype: "int16",
        zarrFormat,
        compressors: null,
      });
      const values = Int16Array.from({ length: 35 }, (_, i) => i - 10);
      await arr.set(null, { data: values, shape: [5, 7] });
      const back = await arr.get();
      expect(back.shape).toEqual([5, 7]);
      expect(Array.from(back.data)).toEqual(Array.from(values));
      // Ragged edge chunks are stored at full chunk shape: 2 x 3 int16 = 12 bytes.
      const edgeKey = zarrFormat === 3 ? "c/2/2" : "2.2";
      expect(store.get(edgeKey)?.length).toBe(12);
      const reopened = await openArray(store);
      expect(reopened.shape).toEqual([5, 7]);
      expect(Array.from((await reopened.get([1, slice(2, 6)])).data)).toEqual([-1, 0, 1, 2]);
    });
  }

  it("reads negative steps, negative indices and ellipsis", async () => {
    const arr = await createArray(new Map(), {
      shape: [4, 5, 6],
      chunks: [3, 2, 4],
      dtype: "int32",
      compressors: null,
    });
    const values = Int32Array.from({ length: 120 }, (_, i) => i);
    await arr.set(null, { data: values, shape: [4, 5, 6] });
    const ref = (i: number, j: number, k: number) => i * 30 + j * 6 + k;
    const got = await arr.get([slice(null, null, -1), -1, slice(5, 0, -2)]);
    expect(got.shape).toEqual([4, 3]);
    const expected: number[] = [];
    for (const i of [3, 2, 1, 0]) for (const k of [5, 3, 1]) expected.push(ref(i, 4, k));
    expect(Array.from(got.data)).toEqual(expected);
    const tail = await arr.get(["...", 2]);
    expect(tail.shape).toEqual([4, 5]);
    expect(tail.data[7]).toBe(ref(1, 2, 2));
  });

  it("reads missing chunks as the fill value and deletes chunks equal to it", async () => {
    const store = new Map<string, Uint8Array>();
    const arr = await createArray(store, {
      shape: [10],
      chunks: [4],
      dtype: "float64",
      fillValue: Number.NaN,
      compressors: null,
    });
    expect(Array.from((await arr.get()).data).every(Number.isNaN)).toBe(true);
    await arr.set(slice(0, 4), 1.5);
    expect(store.has("c/0")).toBe(true);
    await arr.set(slice(0, 4), Number.NaN);
    expect(store.has("c/0")).toBe(false);
    await arr.set(5, 2);
    const data = (await arr.get()).data;
    expect(data[5]).toBe(2);
    expect(Number.isNaN(data[4])).toBe(true);
  });

  it("read-modify-writes partial chunks", async () => {
    const arr = await createArray(new Map(), {
      shape: [6, 6],
      chunks: [4, 4],
      dtype: "uint8",
      compressors: null,
    });
    await arr.set(null, 7);
    await arr.set([slice(1, 5), slice(1, 5)], 9);
    const data = (await arr.get()).data;
    expect(data[0]).toBe(7);
    expect(data[7]).toBe(9);
    expect(data[6 * 4 + 4]).toBe(9);
    expect(data[6 * 5 + 5]).toBe(7);
  });

  it("writes F-order and big-endian v2 arrays that read back", async () => {
    const store = new Map<string, Uint8Array>();
    const arr = await createArray(store, {
      shape: [3, 4],
      chunks: [3, 4],
      dtype: ">f4",
      order: "F",
      zarrFormat: 2,
      compressors: null,
    });
    await arr.set(null, [
      [1, 2, 3, 4],
      [5, 6, 7, 8],
      [9, 10, 11, 12],
    ]);
    const meta = decodeJsonText(store.get(".zarray"));
    expect(meta.dtype).toBe(">f4");
    expect(meta.order).toBe("F");
    // F order: the first stored element is [0,0], the second [1,0]; big-endian 5.0 = 40 a0 00 00.
    expect(Array.from(store.get("0.0")!.subarray(4, 8))).toEqual([0x40, 0xa0, 0, 0]);
    expect(Array.from((await arr.get()).data)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
  });

  it("handles 0-d arrays", async () => {
    const store = new Map<string, Uint8Array>();
    const arr = await createArray(store, {
      shape: [],
      dtype: "int64",
      compressors: null,
      fillValue: 5n,
    });
    expect((await arr.get()).data[0]).toBe(5n);
    await arr.set(null, 42n);
    expect(store.has("c")).toBe(true);
    const got = await arr.get();
    expect(got.shape).toEqual([]);
    expect(got.data[0]).toBe(42n);
  });
});

describe("errors", () => {
  it("rejects out-of-bounds and malformed selections", async () => {
    const arr = await createArray(new Map(), { shape: [4, 4], dtype: "int8", compressors: null });
    await expect(arr.get([4, 0])).rejects.toThrow(BoundsError);
    await expect(arr.get([-5])).rejects.toThrow(/out of bounds for axis 0 with size 4/);
    await expect(arr.get([0, 0, 0])).rejects.toThrow(SelectionError);
    await expect(arr.get([slice(0, 4, 0)])).rejects.toThrow(/non-zero/);
    await expect(arr.set([0, slice(0, 2)], new Int8Array(3))).rejects.toThrow(ValueShapeError);
  });

  it("refuses to create over an existing node unless asked", async () => {
    const store = new Map<string, Uint8Array>();
    await createGroup(store, { path: "a" });
    await expect(
      createArray(store, { path: "a", shape: [1], dtype: "int8", compressors: null }),
    ).rejects.toThrow(/group already exists/);
    const arr = await createArray(store, {
      path: "a",
      shape: [1],
      dtype: "int8",
      overwrite: true,
      compressors: null,
    });
    expect(arr).toBeInstanceOf(ZarrArray);
    await expect(createGroup(store, { path: "a/b" })).rejects.toThrow(/inside an array/);
  });
});

describe("groups", () => {
  it("creates parents and lists members", async () => {
    const store = new Map<string, Uint8Array>();
    await createArray(store, {
      path: "x/y/z",
      shape: [2],
      dtype: "uint8",
      compressors: null,
      attributes: { units: "m" },
    });
    const root = await openGroup(store);
    const members = await root.members();
    expect(members.map(([name]) => name)).toEqual(["x"]);
    const z = await root.get("x/y/z");
    expect(z).toBeInstanceOf(ZarrArray);
    expect((z as ZarrArray).attrs).toEqual({ units: "m" });
    const node = await open(store, { path: "x/y" });
    expect(node.toString()).toBe("<ZarrGroup v3 /x/y>");
  });
});

describe("whole-chunk reads", () => {
  it("never hand out memory the store still holds", async () => {
    const { arr } = await mapStoreArray("int32", [4, 4], [2, 2]);
    await arr.set(
      null,
      Int32Array.from({ length: 16 }, (_, i) => i),
    );
    const one = await arr.get([slice(0, 2), slice(0, 2)]);
    expect(Array.from(one.data)).toEqual([0, 1, 4, 5]);
    one.data[0] = 99;
    expect(Array.from((await arr.get([slice(0, 2), slice(0, 2)])).data)).toEqual([0, 1, 4, 5]);
    // A whole chunk that was never written reads as the fill value.
    const empty = await createArray(new Map(), {
      shape: [4],
      chunks: [2],
      dtype: "float32",
      fillValue: 2.5,
      compressors: null,
    });
    expect(Array.from((await empty.get(slice(2, 4))).data)).toEqual([2.5, 2.5]);
  });
});
