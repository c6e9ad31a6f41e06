// The decoded-chunk cache of arrays: what it serves after writes through other array objects
// (set, resize, append, node deletion, re-creation), that nothing a caller gets can change an
// entry, one budget shared by arrays and groups, concurrent reads, and what it saves on each
// kind of store (MemoryStore, FsStore, HttpStore requests counted by a real server), storage
// transformers included.
import path from "node:path";
import {
  ChunkCache,
  createArray,
  createGroup,
  open,
  openArray,
  openGroup,
  registerStorageTransformer,
  type ZarrArray,
} from "@z/array";
import { slice } from "@z/indexing";
import { MetadataError } from "@z/metadata";
import type { Readable } from "@z/store-core";
import { FsStore } from "@z/store-fs";
import { HttpStore } from "@z/store-http";
import { MemoryStore } from "@z/store-memory";
import { startTestHttpServer } from "@z/test-utils";
import { describe, expect, it } from "vitest";
import { memoryAndFsStores } from "./store-kinds.js";

const MiB = 2 ** 20;
const iota = (n: number, from = 0) => Int32Array.from({ length: n }, (_, i) => from + i);

/**
 * A store whose reads are counted by key; the reads of a key can be made to see the bytes it
 * held at one moment (as a read that started before a write would), and to wait.
 */
class CountingStore extends MemoryStore {
  reads: string[] = [];
  private stale = new Map<string, { bytes: Uint8Array | undefined; gate: Promise<void> }>();

  override async get(key: string, options?: Parameters<MemoryStore["get"]>[1]) {
    this.reads.push(key);
    const stale = this.stale.get(key);
    if (stale === undefined) return super.get(key, options);
    await stale.gate;
    const range = options?.range;
    if (stale.bytes === undefined || range === undefined) return stale.bytes;
    const size = stale.bytes.length;
    if ("suffix" in range) return stale.bytes.subarray(size - range.suffix);
    const end = "length" in range ? range.offset + range.length : size;
    return stale.bytes.subarray(range.offset, end);
  }

  /**
   * From now until `end()`, reads of `key` see the bytes it holds now, and wait for
   * `release()` first.
   */
  async hold(key: string): Promise<{ release: () => void; end: () => void }> {
    const bytes = await super.get(key);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    this.stale.set(key, { bytes, gate });
    return { release, end: () => this.stale.delete(key) };
  }

  chunkReads(): string[] {
    return this.reads.filter((key) => !/(zarr\.json|\.zarray|\.zattrs|\.zgroup)$/.test(key));
  }
}

/** A 20x20 int32 array of 0..399 in 5x5 chunks (or 10x10 shards of 5x5 chunks). */
async function filled(store: Readable, at = "a", sharded = false): Promise<ZarrArray> {
  const chunking = sharded ? { shards: [10, 10], chunks: [5, 5] } : { chunks: [5, 5] };
  const arr = await createArray(store as MemoryStore, {
    path: at,
    shape: [20, 20],
    dtype: "int32",
    ...chunking,
  });
  await arr.set(null, { data: iota(400), shape: [20, 20] });
  return arr;
}

const region = [slice(2, 13), slice(4, 17)];
/** The values of rows r0..r1 and columns c0..c1 of {@link filled}'s array. */
function range(r0: number, r1: number, c0: number, c1: number): number[] {
  const out: number[] = [];
  for (let i = r0; i < r1; i++) for (let j = c0; j < c1; j++) out.push(i * 20 + j);
  return out;
}
const regionValues = (offset = 0) => {
  const out: number[] = [];
  for (let i = 2; i < 13; i++) for (let j = 4; j < 17; j++) out.push(i * 20 + j + offset);
  return out;
};

describe.each([false, true])("reads through the cache (sharded: %s)", (sharded) => {
  it("a second read of a region decodes nothing and reads no chunk", async () => {
    const store = new CountingStore();
    await filled(store, "a", sharded);
    const cache = new ChunkCache({ maxBytes: MiB });
    const arr = await openArray(store, { path: "a", cache });
    expect([...(await arr.get(region)).data]).toEqual(regionValues());
    const { misses } = cache.stats();
    expect(misses).toBeGreaterThan(0);
    store.reads = [];
    expect([...(await arr.get(region)).data]).toEqual(regionValues());
    expect(store.chunkReads()).toEqual([]);
    expect(cache.stats()).toMatchObject({ misses, hits: misses });
    // The region touches 3x4 chunks (inner chunks of a sharded array) of 5x5 int32, each
    // counting 100 bytes + 64.
    expect(cache.stats()).toMatchObject({ entries: 12, bytes: 12 * (100 + 64) });
  });

  it("without a cache, the same reads read every chunk again", async () => {
    const store = new CountingStore();
    await filled(store, "a", sharded);
    const arr = await openArray(store, { path: "a" });
    await arr.get(region);
    // A sharded array keeps the shard indexes it read: only the chunks are read again.
    store.reads = [];
    await arr.get(region);
    expect(store.chunkReads().length).toBeGreaterThanOrEqual(sharded ? 4 : 12);
  });

  it("serves what writes through other array objects wrote: set, resize, append", async () => {
    const store = new MemoryStore();
    const writer = await filled(store, "a", sharded);
    const cache = new ChunkCache({ maxBytes: MiB });
    const reader = await openArray(store, { path: "a", cache });
    await reader.get(null);
    await writer.set([slice(3, 4), slice(5, 6)], -7);
    expect((await reader.get([3, 5])).data[0]).toBe(-7);
    expect([...(await reader.get([slice(3, 4), slice(4, 7)])).data]).toEqual([64, -7, 66]);

    // Shrinking resets the parts of edge chunks outside; growing again reads the fill value.
    await writer.resize([12, 20]);
    await writer.resize([20, 20]);
    const again = await openArray(store, { path: "a", cache });
    expect([...(await again.get([slice(11, 13), 0])).data]).toEqual([220, 0]);

    await writer.append({ data: new Int32Array(5 * 20).fill(9), shape: [5, 20] });
    const grown = await openArray(store, { path: "a", cache });
    expect([...(await grown.get([slice(19, 21), 1])).data]).toEqual([0, 9]);
    expect([...(await grown.get([slice(0, 2), 0])).data]).toEqual([0, 20]);
  });

  it("serves neither a deleted array's chunks nor those of an array re-created at its path", async () => {
    const store = new MemoryStore();
    const root = await createGroup(store);
    await filled(store, "a", sharded);
    const cache = new ChunkCache({ maxBytes: MiB });
    const before = await openArray(store, { path: "a", cache });
    expect((await before.get([7, 7])).data[0]).toBe(147);

    // Deleted and created again with the same metadata: its chunks are missing now.
    const metadata = before.metadata;
    await root.delete("a");
    await root.createArray("a", {
      shape: [20, 20],
      dtype: "int32",
      ...(sharded ? { shards: [10, 10], chunks: [5, 5] } : { chunks: [5, 5] }),
    });
    const recreated = await openArray(store, { path: "a", cache });
    expect(recreated.metadata.chunkGrid.chunkShape).toEqual(metadata.chunkGrid.chunkShape);
    expect((await recreated.get([7, 7])).data[0]).toBe(0);

    // Replaced (mode "w") by an array of another data type whose chunks hold other values.
    await recreated.set(null, { data: iota(400, 1000), shape: [20, 20] });
    expect((await recreated.get([7, 7])).data[0]).toBe(1147);
    const floats = await openArray(store, {
      path: "a",
      mode: "w",
      shape: [20, 20],
      chunks: [5, 5],
      dtype: "float32",
      fillValue: 0.5,
      cache,
    });
    expect(await floats.get([7, 7])).toMatchObject({ data: new Float32Array([0.5]) });
    await floats.set([7, 7], 2.25);
    expect((await (await openArray(store, { path: "a", cache })).get([7, 7])).data[0]).toBe(2.25);
  });

  it("a read that ran during a write does not keep what it read", async () => {
    const store = new CountingStore();
    const writer = await filled(store, "a", sharded);
    const cache = new ChunkCache({ maxBytes: MiB });
    const reader = await openArray(store, { path: "a", cache });
    const key = reader.chunkKey([0, 0]);
    const held = await store.hold(key);
    const reading = reader.get([slice(0, 5), slice(0, 5)]);
    // A whole-chunk (or whole-shard) write replaces the key without reading it.
    const whole = sharded ? 10 : 5;
    await writer.set([slice(0, whole), slice(0, whole)], 42);
    held.release();
    // The read saw the chunk as it was before the write.
    expect([...(await reading).data]).toEqual(range(0, 5, 0, 5));
    // ... and did not keep it: its version changed while it read.
    expect(cache.stats()).toMatchObject({ entries: 0, misses: 1 });
    held.end();
    expect([...(await reader.get([slice(0, 5), slice(0, 5)])).data]).toEqual(
      new Array(25).fill(42),
    );
  });

  it("two reads that need the same chunks at once decode each once", async () => {
    const store = new CountingStore();
    await filled(store, "a", sharded);
    const cache = new ChunkCache({ maxBytes: MiB });
    const arr = await openArray(store, { path: "a", cache });
    store.reads = [];
    const [x, y] = await Promise.all([arr.get(region), arr.get(region)]);
    expect([...x.data]).toEqual(regionValues());
    expect([...y.data]).toEqual(regionValues());
    const stats = cache.stats();
    expect(stats.misses).toBe(12);
    expect(stats.hits).toBe(12);
    if (!sharded) expect(store.chunkReads().length).toBe(12);
  });

  it("nothing a caller gets from a read changes what later reads return", async () => {
    const store = new MemoryStore();
    await filled(store, "a", sharded);
    const cache = new ChunkCache({ maxBytes: MiB });
    const arr = await openArray(store, { path: "a", cache });
    const values = iota(400);
    const at = (i: number, j: number) => values[i * 20 + j];
    const reads: [string, () => Promise<{ data: unknown }>, number[]][] = [
      ["get of one whole chunk", () => arr.get([slice(0, 5), slice(0, 5)]), range2(0, 5, 0, 5)],
      ["get of a region", () => arr.get(region), regionValues()],
      ["get of everything", () => arr.get(), [...values]],
      [
        "get into out",
        () => arr.get([slice(5, 10), slice(5, 10)], { out: new Int32Array(25) }),
        range2(5, 10, 5, 10),
      ],
      [
        "getOrthogonal",
        () => arr.getOrthogonal([[1, 7], slice(0, 3)]),
        [at(1, 0), at(1, 1), at(1, 2), at(7, 0), at(7, 1), at(7, 2)],
      ],
      [
        "getCoordinates",
        () =>
          arr.getCoordinates([
            [0, 19],
            [0, 19],
          ]),
        [at(0, 0), at(19, 19)],
      ],
      [
        "getMask",
        () =>
          arr.getMask({
            data: Uint8Array.from({ length: 400 }, (_, i) => (i % 97 === 0 ? 1 : 0)),
            shape: [20, 20],
          }),
        [0, 97, 194, 291, 388],
      ],
      // Blocks are whole stored chunks: shards of a sharded array.
      [
        "getBlocks",
        () => arr.getBlocks([1, 1]),
        sharded ? range2(10, 20, 10, 20) : range2(5, 10, 5, 10),
      ],
      [
        "getSelection",
        () => arr.getSelection({ blocks: [0, 0] }),
        sharded ? range2(0, 10, 0, 10) : range2(0, 5, 0, 5),
      ],
    ];
    function range2(r0: number, r1: number, c0: number, c1: number): number[] {
      const out: number[] = [];
      for (let i = r0; i < r1; i++) for (let j = c0; j < c1; j++) out.push(at(i, j));
      return out;
    }
    for (let round = 0; round < 2; round++) {
      for (const [name, read, want] of reads) {
        const got = (await read()).data as Int32Array;
        expect([...got], `${name}, round ${round}`).toEqual(want);
        got.fill(-99);
      }
    }
    expect(cache.stats().hits).toBeGreaterThan(0);
    for (const [name, read, want] of reads)
      expect([...((await read()).data as Int32Array)], name).toEqual(want);
  });
});

describe("one cache, many arrays", () => {
  it("arrays share one budget, and the least recently used chunks go first", async () => {
    const store = new MemoryStore();
    await filled(store, "a");
    await filled(store, "b");
    // Room for 10 chunks of 5x5 int32 (100 bytes + 64 each).
    const cache = new ChunkCache({ maxBytes: 10 * 164 });
    const a = await openArray(store, { path: "a", cache });
    const b = await openArray(store, { path: "b", cache });
    await a.get([slice(0, 5), null]); // 4 chunks
    await b.get([slice(0, 10), null]); // 8 chunks: 2 of a's go
    expect(cache.stats()).toMatchObject({ entries: 10, bytes: 1640, evictions: 2 });
    const { misses } = cache.stats();
    await a.get([slice(0, 5), slice(10, 20)]); // a's last two chunks are still held
    expect(cache.stats().misses).toBe(misses);
    await a.get([slice(0, 5), slice(0, 10)]); // its first two are not
    expect(cache.stats().misses).toBe(misses + 2);
  });

  it("two array objects of one array share entries; two stores over one folder do not", async () => {
    const store = new MemoryStore();
    await filled(store, "a");
    const cache = new ChunkCache({ maxBytes: MiB });
    await (await openArray(store, { path: "a", cache })).get();
    const { misses } = cache.stats();
    await (await openArray(store, { path: "a", cache })).get();
    expect(cache.stats().misses).toBe(misses);
    // A read-only view of the store (mode "r") is the same store.
    await (await openArray(store, { path: "a", cache, mode: "r" })).get();
    expect(cache.stats().misses).toBe(misses);
    const copy = new MemoryStore();
    for await (const key of store.list()) copy.set(key, (await store.get(key)) as Uint8Array);
    await (await openArray(copy, { path: "a", cache })).get();
    expect(cache.stats().misses).toBe(2 * misses);
  });

  it("arrays opened through a group, or by open, use the group's cache", async () => {
    const store = new MemoryStore();
    await createGroup(store);
    await filled(store, "g/a");
    const cache = new ChunkCache({ maxBytes: MiB });
    const root = await openGroup(store, { cache });
    const viaGroup = (await root.get("g/a")) as ZarrArray;
    await viaGroup.get(region);
    const { misses } = cache.stats();
    const sub = await open(store, { path: "g", cache });
    const viaSub = (await (sub as Awaited<ReturnType<typeof openGroup>>).get("a")) as ZarrArray;
    await viaSub.get(region);
    const viaOpen = (await open(store, { path: "g/a", cache })) as ZarrArray;
    await viaOpen.get(region);
    expect(cache.stats()).toMatchObject({ misses, hits: 2 * misses });
    // A group opened without one gives arrays without one.
    const plain = (await (await openGroup(store)).get("g/a")) as ZarrArray;
    await plain.get(region);
    expect(cache.stats()).toMatchObject({ misses, hits: 2 * misses });
  });
});

/** Keeps an array's chunks one folder down (`a/c/0` as `a/_moved/c/0`): a storage transformer. */
registerStorageTransformer("test.cache-folder", (store, { path }) => {
  const inner = store as MemoryStore;
  const moved = (key: string) => `${path}/_moved/${key.slice(path.length + 1)}`;
  return {
    get: (key: string, options?: Parameters<MemoryStore["get"]>[1]) =>
      inner.get(moved(key), options),
    set: (key: string, value: Uint8Array) => inner.set(moved(key), value),
    delete: (key: string) => inner.delete(moved(key)),
  } as unknown as Readable;
});

describe("storage transformers", () => {
  it("writes through another array object of the transformed array make entries stale, read-only views included", async () => {
    const store = new MemoryStore();
    await createArray(store, { path: "a", shape: [4], chunks: [2], dtype: "int16" });
    const doc = JSON.parse(new TextDecoder().decode(await store.get("a/zarr.json")));
    doc.storage_transformers = [{ name: "test.cache-folder", configuration: {} }];
    await store.set("a/zarr.json", new TextEncoder().encode(JSON.stringify(doc)));
    const writer = await openArray(store, { path: "a" });
    await writer.set(null, Int16Array.of(1, 2, 3, 4));
    expect(await store.get("a/_moved/c/0")).toBeDefined();
    const cache = new ChunkCache({ maxBytes: MiB });
    const reader = await openArray(store, { path: "a", mode: "r", cache });
    expect([...(await reader.get()).data]).toEqual([1, 2, 3, 4]);
    expect([...(await reader.get()).data]).toEqual([1, 2, 3, 4]);
    expect(cache.stats()).toMatchObject({ hits: 2, misses: 2 });
    await writer.set([1], 20);
    expect([...(await reader.get()).data]).toEqual([1, 20, 3, 4]);
    expect(cache.stats()).toMatchObject({ hits: 3, misses: 3 });
  });
});

describe("nodes an opener's mode creates", () => {
  it("read through the cache given with the mode (openArray, openGroup)", async () => {
    const store = new MemoryStore();
    const cache = new ChunkCache({ maxBytes: MiB });
    const created = await openArray(store, {
      path: "a",
      mode: "a",
      shape: [10],
      chunks: [5],
      dtype: "int8",
      cache,
    });
    await created.set(null, 4);
    await created.get();
    await created.get();
    expect(cache.stats()).toMatchObject({ misses: 2, hits: 2 });
    const group = await openGroup(store, { path: "g", mode: "w", cache });
    await group.createArray("b", { shape: [4], chunks: [4], dtype: "int8" });
    const child = (await group.get("b")) as ZarrArray;
    await child.get();
    await child.get();
    expect(cache.stats()).toMatchObject({ misses: 3, hits: 3 });
  });
});

describe("what is not cached", () => {
  it("a chunk larger than maxBytes is read every time, and correctly", async () => {
    const store = new CountingStore();
    await filled(store);
    const cache = new ChunkCache({ maxBytes: 100 }); // a chunk counts 164
    const arr = await openArray(store, { path: "a", cache });
    for (let i = 0; i < 2; i++) expect([...(await arr.get(region)).data]).toEqual(regionValues());
    expect(cache.stats()).toMatchObject({ entries: 0, bytes: 0, hits: 0, misses: 24 });
  });

  it("missing chunks are held as small entries and read as the fill value", async () => {
    const store = new CountingStore();
    await createArray(store, { path: "a", shape: [10], chunks: [5], dtype: "int16", fillValue: 3 });
    const cache = new ChunkCache({ maxBytes: MiB });
    const arr = await openArray(store, { path: "a", cache });
    for (let i = 0; i < 2; i++) expect([...(await arr.get()).data]).toEqual(new Array(10).fill(3));
    expect(cache.stats()).toMatchObject({ entries: 2, bytes: 128, hits: 2, misses: 2 });
    store.reads = [];
    await arr.get();
    expect(store.chunkReads()).toEqual([]);
  });
});

describe("bad input", () => {
  it("a maxBytes that is no number >= 0 is a MetadataError naming it", () => {
    for (const bad of [-1, Number.NaN, "1", undefined]) {
      expect(() => new ChunkCache({ maxBytes: bad as number })).toThrow(MetadataError);
      expect(() => new ChunkCache({ maxBytes: bad as number })).toThrow(/maxBytes/);
    }
    expect(() => new ChunkCache(undefined as never)).toThrow(/maxBytes/);
  });

  it("clear drops every entry and keeps the counters", async () => {
    const store = new MemoryStore();
    await filled(store);
    const cache = new ChunkCache({ maxBytes: MiB });
    const arr = await openArray(store, { path: "a", cache });
    await arr.get(region);
    cache.clear();
    expect(cache.stats()).toMatchObject({ entries: 0, bytes: 0, misses: 12 });
    await arr.get(region);
    expect(cache.stats()).toMatchObject({ entries: 12, misses: 24 });
  });
});

describe("on each kind of store", () => {
  const { stores } = memoryAndFsStores("z-chunk-cache-");
  it.each(stores)("%s: reading a region again reads no chunk (v2 and v3)", async (_, make) => {
    for (const zarrFormat of [2, 3] as const) {
      const store = make();
      const at = `v${zarrFormat}`;
      const arr = await createArray(store, {
        path: at,
        shape: [20, 20],
        chunks: [5, 5],
        dtype: "float64",
        zarrFormat,
      });
      await arr.set(null, { data: Float64Array.from(iota(400)), shape: [20, 20] });
      let chunkReads = 0;
      const counted = new Proxy(store, {
        get(target, property) {
          const value = Reflect.get(target, property, target);
          if (property === "get" || property === "getInto")
            return (key: string, ...rest: unknown[]) => {
              if (/\/c[./]|\/\d/.test(key)) chunkReads++;
              return (value as (...args: unknown[]) => unknown).call(target, key, ...rest);
            };
          return typeof value === "function" ? value.bind(target) : value;
        },
      });
      const cache = new ChunkCache({ maxBytes: MiB });
      const cached = await openArray(counted, { path: at, cache });
      expect([...(await cached.get(region)).data]).toEqual(regionValues());
      expect(chunkReads).toBe(12);
      expect([...(await cached.get(region)).data]).toEqual(regionValues());
      expect(chunkReads).toBe(12);
    }
  });

  it("HttpStore: a second read of a region makes no chunk request", async () => {
    const { dir, remove } = (await import("@z/test-utils")).tempDir("z-chunk-cache-http-");
    const server = await startTestHttpServer({ root: dir });
    try {
      const fs = new FsStore(path.join(dir, "data.zarr"));
      await filled(fs, "plain");
      await filled(fs, "sharded", true);
      const http = new HttpStore(`${server.url}data.zarr/`);
      const cache = new ChunkCache({ maxBytes: MiB });
      const chunkRequests = () =>
        server.requests.filter((r) => r.method === "GET" && !r.path.endsWith(".json")).length;
      for (const at of ["plain", "sharded"]) {
        const arr = await openArray(http, { path: at, cache });
        server.reset();
        expect([...(await arr.get(region)).data]).toEqual(regionValues());
        expect(chunkRequests()).toBeGreaterThan(0);
        server.reset();
        expect([...(await arr.get(region)).data]).toEqual(regionValues());
        expect(chunkRequests()).toBe(0);
        // Without the cache the same read asks again.
        const uncached = await openArray(http, { path: at });
        server.reset();
        await uncached.get(region);
        expect(chunkRequests()).toBeGreaterThan(0);
      }
    } finally {
      await server.stop();
      remove();
    }
  });
});
