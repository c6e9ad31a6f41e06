import { createArray, openArray, type ZarrArray } from "@z/array";
import { slice } from "@z/indexing";
import type { NamedConfig } from "@z/metadata";
import { ReadOnlyStore, UnsupportedOperationError } from "@z/store-core";
import { FsStore } from "@z/store-fs";
import { HttpStore } from "@z/store-http";
import { MemoryStore } from "@z/store-memory";
import { havePython, runPython, startTestHttpServer, type TestHttpServer } from "@z/test-utils";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { memoryAndFsStores } from "./store-kinds.js";

/*
 * The array properties zarr-python 3 has and `info` only printed: nchunks, cdataShape,
 * nchunksInitialized (stored chunks counted by listing, shards counting for their inner
 * chunks), readOnly, and the codecs by role (filters, serializer, compressors).
 */

const { stores, dir: sandboxDir } = memoryAndFsStores("z-array-props-");

for (const [storeName, makeStore] of stores) {
  for (const zarrFormat of [2, 3] as const) {
    describe(`${storeName}, v${zarrFormat}`, () => {
      it("nchunks and cdataShape count the grid's chunks, edge chunks included", async () => {
        const arr = await createArray(makeStore(), {
          path: "a",
          shape: [10, 7],
          chunks: [4, 3],
          dtype: "int16",
          zarrFormat,
        });
        expect(arr.cdataShape).toEqual([3, 3]);
        expect(arr.nchunks).toBe(9);
        const scalar = await createArray(makeStore(), { shape: [], dtype: "int8", zarrFormat });
        expect(scalar.nchunks).toBe(1);
        const empty = await createArray(makeStore(), {
          shape: [0, 4],
          chunks: [2, 2],
          dtype: "int8",
          zarrFormat,
        });
        expect(empty.nchunks).toBe(0);
      });

      it("nchunksInitialized counts the chunks written, not those left at the fill value", async () => {
        const store = makeStore();
        const arr = await createArray(store, {
          path: "g/a",
          shape: [10],
          chunks: [2],
          dtype: "int32",
          zarrFormat,
        });
        expect(await arr.nchunksInitialized()).toBe(0);
        await arr.set([slice(0, 5)], 1);
        expect(await arr.nchunksInitialized()).toBe(3);
        // Chunks that become all fill value are deleted, so they no longer count.
        await arr.set([slice(0, 4)], 0);
        expect(await arr.nchunksInitialized()).toBe(1);
        // A sibling array's chunks and other keys under the prefix are not this array's chunks.
        const other = await createArray(store, {
          path: "g/b",
          shape: [4],
          chunks: [1],
          dtype: "int8",
          zarrFormat,
        });
        await other.set(null, 7);
        expect(await other.nchunksInitialized()).toBe(4);
        expect(await arr.nchunksInitialized()).toBe(1);
        await store.set("g/a/notes.txt", new Uint8Array([1]));
        const outside = zarrFormat === 3 ? "g/a/c/99" : "g/a/99";
        await store.set(outside, new Uint8Array([1]));
        expect(await arr.nchunksInitialized()).toBe(1);
        // The count is read from the store, so another object on the same array sees it.
        expect(await (await openArray(store, { path: "g/a" })).nchunksInitialized()).toBe(1);
      });

      it("readOnly is false for a writable store and true for a read-only view", async () => {
        const store = makeStore();
        const arr = await createArray(store, { shape: [4], dtype: "uint8", zarrFormat });
        expect(arr.readOnly).toBe(false);
        expect((await openArray(store)).readOnly).toBe(false);
        expect((await openArray(store, { mode: "r" })).readOnly).toBe(true);
        expect((await openArray(new ReadOnlyStore(store))).readOnly).toBe(true);
      });
    });
  }

  describe(`${storeName}: codecs by role`, () => {
    it("v3: transpose and other array-to-array codecs are filters, bytes the serializer", async () => {
      const arr = await createArray(makeStore(), {
        shape: [6, 4],
        chunks: [3, 2],
        dtype: "float32",
        order: "F",
        compressors: [{ name: "gzip", configuration: { level: 5 } }, "crc32c"],
      });
      expect(arr.filters).toEqual([
        { name: "transpose", configuration: { order: [1, 0] }, mustUnderstand: true },
      ]);
      expect(arr.serializer).toEqual({
        name: "bytes",
        configuration: { endian: "little" },
        mustUnderstand: true,
      });
      expect(arr.compressors.map((c) => ("name" in c ? c.name : c.id))).toEqual(["gzip", "crc32c"]);
      expect(arr.compressors[0]).toMatchObject({ configuration: { level: 5 } });
      // Copies: changing them leaves the array's codecs as they are.
      (arr.compressors[0] as NamedConfig).configuration.level = 1;
      expect(arr.compressors[0]).toMatchObject({ configuration: { level: 5 } });
    });

    it("v3 defaults: no filters, bytes, zstd", async () => {
      const arr = await createArray(makeStore(), { shape: [8], dtype: "uint16" });
      expect(arr.filters).toEqual([]);
      expect(arr.serializer?.name).toBe("bytes");
      expect(arr.compressors.map((c) => (c as { name: string }).name)).toEqual(["zstd"]);
    });

    it("v3 without compressors has an empty list", async () => {
      const arr = await createArray(makeStore(), {
        shape: [8],
        dtype: "uint16",
        compressors: null,
      });
      expect(arr.compressors).toEqual([]);
    });

    it("v2: numcodecs filters and the compressor, no serializer", async () => {
      const arr = await createArray(makeStore(), {
        shape: [8],
        chunks: [4],
        dtype: "<i4",
        zarrFormat: 2,
        filters: [{ id: "delta", dtype: "<i4" }],
        compressor: { id: "zlib", level: 3 },
      });
      expect(arr.filters).toEqual([{ id: "delta", dtype: "<i4" }]);
      expect(arr.compressors).toEqual([{ id: "zlib", level: 3 }]);
      expect(arr.serializer).toBeUndefined();
      const plain = await createArray(makeStore(), {
        shape: [8],
        dtype: "<i4",
        zarrFormat: 2,
        compressor: null,
      });
      expect(plain.filters).toEqual([]);
      expect(plain.compressors).toEqual([]);
    });
  });

  describe(`${storeName}: sharded arrays`, () => {
    it("nchunks counts inner chunks; nchunksInitialized counts stored shards times the chunks per shard", async () => {
      const arr = await createArray(makeStore(), {
        path: "s",
        shape: [16, 9],
        shards: [8, 6],
        chunks: [4, 3],
        dtype: "uint8",
        compressors: [{ name: "gzip", configuration: { level: 1 } }],
      });
      expect(arr.cdataShape).toEqual([4, 3]);
      expect(arr.nchunks).toBe(12);
      expect(await arr.nchunksInitialized()).toBe(0);
      // One element makes one shard stored: it counts for its 2 x 2 inner chunks, as in
      // zarr-python (which counts shards times chunks per shard).
      await arr.set([0, 0], 5);
      expect(await arr.nchunksInitialized()).toBe(4);
      await arr.set([15, 8], 5);
      expect(await arr.nchunksInitialized()).toBe(8);
      // The inner codecs, as zarr-python's filters / serializer / compressors report them.
      expect(arr.filters).toEqual([]);
      expect(arr.serializer?.name).toBe("bytes");
      expect(arr.compressors.map((c) => (c as { name: string }).name)).toEqual(["gzip"]);
    });
  });
}

describe("nchunksInitialized against a model of the chunks written", () => {
  it("equals the distinct chunks (or shards times chunks per shard) holding non-fill values", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 3 }).chain((ndim) =>
          fc.record({
            shape: fc.array(fc.integer({ min: 1, max: 9 }), { minLength: ndim, maxLength: ndim }),
            chunks: fc.array(fc.integer({ min: 1, max: 4 }), { minLength: ndim, maxLength: ndim }),
            perShard: fc.array(fc.integer({ min: 1, max: 2 }), {
              minLength: ndim,
              maxLength: ndim,
            }),
            sharded: fc.boolean(),
            zarrFormat: fc.constantFrom(2 as const, 3 as const),
            points: fc.array(fc.array(fc.nat(), { minLength: ndim, maxLength: ndim }), {
              maxLength: 6,
            }),
          }),
        ),
        async ({ shape, chunks, perShard, sharded, zarrFormat, points }) => {
          const shardsOn = sharded && zarrFormat === 3;
          const shards = chunks.map((c, i) => c * perShard[i]);
          const arr = await createArray(new MemoryStore(), {
            shape,
            chunks,
            ...(shardsOn ? { shards } : {}),
            dtype: "uint8",
            zarrFormat,
          });
          const unit = shardsOn ? shards : chunks;
          const stored = new Set<string>();
          for (const raw of points) {
            const point = raw.map((p, i) => p % shape[i]);
            await arr.set(point, 1);
            stored.add(point.map((p, i) => Math.floor(p / unit[i])).join(","));
          }
          const perStored = shardsOn ? perShard.reduce((a, b) => a * b, 1) : 1;
          expect(await arr.nchunksInitialized()).toBe(stored.size * perStored);
          expect(arr.nchunks).toBe(shape.reduce((n, s, i) => n * Math.ceil(s / chunks[i]), 1));
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe("zarr-python 2 agrees on nchunks_initialized of a v2 array", () => {
  it.runIf(havePython("array-props"))("counts the same chunks", async () => {
    const dir = `${sandboxDir()}/py`;
    const arr = await createArray(new FsStore(dir), {
      shape: [10, 10],
      chunks: [3, 4],
      dtype: "<f8",
      zarrFormat: 2,
    });
    await arr.set([slice(0, 5), slice(2, 9)], 2.5);
    const out = runPython(
      `import zarr; z = zarr.open(${JSON.stringify(dir)}, mode="r"); print(z.nchunks, z.nchunks_initialized)`,
    ).trim();
    expect(out).toBe(`${arr.nchunks} ${await arr.nchunksInitialized()}`);
  });
});

describe("HttpStore (reads)", () => {
  let server: TestHttpServer;
  let root: string;
  beforeAll(async () => {
    root = `${sandboxDir()}/served`;
    // One hierarchy per format: a v3 root group does not list v2 children.
    const v3 = await createArray(new FsStore(`${root}/three`), {
      path: "v3",
      shape: [6],
      chunks: [2],
      dtype: "int16",
      compressors: [{ name: "gzip", configuration: { level: 2 } }],
    });
    await v3.set([slice(0, 3)], 4);
    await createArray(new FsStore(`${root}/two`), {
      path: "v2",
      shape: [6],
      chunks: [3],
      dtype: "<u2",
      zarrFormat: 2,
      compressor: { id: "zlib", level: 1 },
    });
    server = await startTestHttpServer({ root });
  });
  afterAll(() => server.stop());

  it("reads the properties; the store is read-only; counting needs a listing", async () => {
    const v3: ZarrArray = await openArray(new HttpStore(new URL("three/", server.url).href), {
      path: "v3",
    });
    expect(v3.readOnly).toBe(true);
    expect(v3.nchunks).toBe(3);
    expect(v3.cdataShape).toEqual([3]);
    expect(v3.compressors).toEqual([
      { name: "gzip", configuration: { level: 2 }, mustUnderstand: true },
    ]);
    expect(v3.serializer?.name).toBe("bytes");
    await expect(v3.nchunksInitialized()).rejects.toThrow(UnsupportedOperationError);
    await expect(v3.nchunksInitialized()).rejects.toThrow(/cannot list keys/);
    const v2 = await openArray(new HttpStore(new URL("two/", server.url).href), { path: "v2" });
    expect(v2.compressors).toEqual([{ id: "zlib", level: 1 }]);
    expect(v2.readOnly).toBe(true);
    // The same array on a filesystem store counts its chunks.
    const local = await openArray(new FsStore(`${root}/three`), { path: "v3" });
    expect(await local.nchunksInitialized()).toBe(2);
  });
});
