import { createArray, ValueShapeError } from "@z/array";
import { slice } from "@z/indexing";
import { describe, expect, it } from "vitest";

describe("resize and append", () => {
  for (const zarrFormat of [2, 3] as const) {
    it(`shrinking deletes chunks outside and resets edge data (v${zarrFormat})`, async () => {
      const store = new Map<string, Uint8Array>();
      const arr = await createArray(store, {
        shape: [10, 10],
        chunks: [4, 4],
        dtype: "int16",
        zarrFormat,
        compressors: null,
        fillValue: -1,
      });
      await arr.set(null, 5);
      expect([...store.keys()].filter((k) => !k.includes(".z") && k !== "zarr.json")).toHaveLength(
        9,
      );
      await arr.resize([5, 6]);
      expect(arr.shape).toEqual([5, 6]);
      const chunkKeys = [...store.keys()]
        .filter((k) => !k.includes(".z") && k !== "zarr.json")
        .sort();
      expect(chunkKeys).toEqual(
        zarrFormat === 3 ? ["c/0/0", "c/0/1", "c/1/0", "c/1/1"] : ["0.0", "0.1", "1.0", "1.1"],
      );
      // Growing again: what was cut off reads as the fill value, not as the old data.
      await arr.resize([10, 10]);
      const data = (await arr.get()).data;
      expect(data[4 * 10 + 5]).toBe(5);
      expect(data[5 * 10 + 5]).toBe(-1);
      expect(data[4 * 10 + 6]).toBe(-1);
      expect(data[7 * 10 + 7]).toBe(-1);
      const reopened = await createArray(store, {
        shape: [1],
        dtype: "int8",
        overwrite: true,
        compressors: null,
      });
      expect(reopened.shape).toEqual([1]);
    });
  }

  it("appends along an axis", async () => {
    const arr = await createArray(new Map(), {
      shape: [2, 3],
      chunks: [2, 2],
      dtype: "float32",
      compressors: null,
    });
    await arr.set(null, [
      [1, 2, 3],
      [4, 5, 6],
    ]);
    const shape = await arr.append({ data: Float32Array.of(7, 8, 9, 10, 11, 12), shape: [2, 3] });
    expect(shape).toEqual([4, 3]);
    expect(Array.from((await arr.get([slice(null), 2])).data)).toEqual([3, 6, 9, 12]);
    await arr.append({ data: Float32Array.of(0, 0, 0, 0), shape: [4, 1] }, 1);
    expect(arr.shape).toEqual([4, 4]);
    await expect(arr.append({ data: Float32Array.of(1), shape: [1, 1] }, 0)).rejects.toThrow(
      ValueShapeError,
    );
    await expect(arr.resize([1])).rejects.toThrow(/shape of 2 extents/);
  });
});

describe("properties", () => {
  it("reports shape, size, nbytes, chunks and info", async () => {
    const arr = await createArray(new Map(), {
      shape: [6, 8],
      chunks: [3, 4],
      dtype: "uint16",
      dimensionNames: ["y", "x"],
      attributes: { units: "counts" },
      compressors: [{ name: "gzip", configuration: { level: 1 } }],
    });
    expect([arr.ndim, arr.size, arr.nbytes, arr.dtype]).toEqual([2, 48, 96, "uint16"]);
    expect(arr.chunks).toEqual([3, 4]);
    expect(arr.shards).toBeUndefined();
    expect(arr.dimensionNames).toEqual(["y", "x"]);
    expect(arr.fillValue).toBe(0);
    const info = arr.info;
    expect(info.gridChunks).toBe(4);
    expect(String(info)).toMatch(/Codecs\s+: bytes\(endian="little"\) -> gzip\(level=1\)/);
    expect(String(info)).toMatch(/Dimension names\s+: y, x/);
    await arr.updateAttributes({ more: 1 });
    expect(arr.attrs).toEqual({ units: "counts", more: 1 });
  });
});
