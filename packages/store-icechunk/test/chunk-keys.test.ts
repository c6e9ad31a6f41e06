import { openRepository } from "@z/store-icechunk";
import { createArray, createGroup, openArray, slice } from "@z/zarr";
import { beforeAll, describe, expect, it } from "vitest";
import { type ChunkKeyEncoding, formatChunkKey, parseChunkKey } from "../src/chunk-key.js";
import { icechunk, mapStorage, officialZarrStore } from "./official.js";

/*
 * Chunk keys and array shapes the snapshot store maps to chunk references: the chunk key
 * encodings (parsed and formatted; the official writer stores `default` keys with `/` only), a
 * 0-d array, and an array at the root of a repository.
 */

async function write(build: (store: ReturnType<typeof officialZarrStore>) => Promise<void>) {
  const files = new Map<string, Uint8Array>();
  const repo = await icechunk().Repository.create(mapStorage(files), null, 2);
  const session = await repo.writableSession("main");
  await build(officialZarrStore(session.store));
  await session.commit("data");
  return files;
}

const grid = Int32Array.from({ length: 30 }, (_, i) => i * 3 - 40);

describe("chunk keys", () => {
  let files: Map<string, Uint8Array>;
  beforeAll(async () => {
    files = await write(async (store) => {
      await createGroup(store, {});
      // The official implementation stores only `default` chunk keys with `/` (it refuses others).
      const encodings = { c: { name: "default", separator: "/" } };
      for (const [name, chunkKeyEncoding] of Object.entries(encodings)) {
        const arr = await createArray(store, {
          path: `grids/${name}`,
          shape: [5, 6],
          chunks: [2, 4],
          dtype: "int32",
          chunkKeyEncoding,
        } as never);
        await arr.set(null, { data: grid, shape: [5, 6], stride: [6, 1] } as never);
      }
      const scalar = await createArray(store, {
        path: "scalar",
        shape: [],
        chunks: [],
        dtype: "float64",
      } as never);
      await scalar.set(null, { data: Float64Array.of(2.5), shape: [], stride: [] } as never);
    });
  }, 60_000);

  it("read a grid through its c/i/j keys", async () => {
    const name = "c";
    const session = await (await openRepository(files)).readonlySession({ branch: "main" });
    const arr = await openArray(session.store, { path: `grids/${name}` });
    expect(Array.from((await arr.get(null)).data as Int32Array)).toEqual(Array.from(grid));
    expect(Array.from((await arr.get([slice(1, 4), 5])).data as Int32Array)).toEqual([-7, 11, 29]);
    const keys: string[] = [];
    for await (const key of session.store.listPrefix(`grids/${name}/`)) keys.push(key);
    expect(keys).toHaveLength(1 + 3 * 2);
  });

  it("read a 0-d array", async () => {
    const session = await (await openRepository(files)).readonlySession({ branch: "main" });
    const scalar = await openArray(session.store, { path: "scalar" });
    expect(Array.from((await scalar.get(null)).data as Float64Array)).toEqual([2.5]);
    expect(await session.store.chunkRef("scalar/c")).toMatchObject({ kind: "inline" });
  });

  it("read an array at the root of a repository", async () => {
    const rootFiles = await write(async (store) => {
      const arr = await createArray(store, { shape: [7], chunks: [3], dtype: "uint16" } as never);
      await arr.set(null, {
        data: Uint16Array.of(1, 2, 3, 4, 5, 6, 7),
        shape: [7],
        stride: [1],
      } as never);
    });
    const session = await (await openRepository(rootFiles)).readonlySession({ branch: "main" });
    const arr = await openArray(session.store);
    expect(Array.from((await arr.get(null)).data as Uint16Array)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    const keys: string[] = [];
    for await (const key of session.store.list()) keys.push(key);
    expect(keys).toEqual(["c/0", "c/1", "c/2", "zarr.json"]);
  });
});

describe("chunk key encodings", () => {
  const cases: Array<[ChunkKeyEncoding, number[], string]> = [
    [{ name: "default", separator: "/" }, [1, 20], "c/1/20"],
    [{ name: "default", separator: "." }, [1, 20], "c.1.20"],
    [{ name: "default", separator: "/" }, [], "c"],
    [{ name: "v2", separator: "." }, [3, 0], "3.0"],
    [{ name: "v2", separator: "/" }, [3, 0], "3/0"],
    [{ name: "v2", separator: "." }, [], "0"],
  ];
  it.each(cases)("%j maps %j to %s and back", (encoding, coords, key) => {
    expect(formatChunkKey(coords, encoding)).toBe(key);
    expect(parseChunkKey(key, encoding, coords.length)).toEqual(coords);
  });
  it.each(["c/1", "c/1/2/3", "c/01/2", "c/-1/2", "c/1/x", "1/2", "c/1/99999999999"])(
    "refuses %s as a 2-d default key",
    (key) => {
      expect(parseChunkKey(key, { name: "default", separator: "/" }, 2)).toBeUndefined();
    },
  );
});
