// The chunk cache against simple models: its entries, counters and evictions against a list in
// least-recently-used order bounded by bytes; and arrays read through a small cache, written
// through other array objects, against the values in memory.
import { ChunkCache, createArray, openArray, type ZarrArray } from "@z/array";
import { slice } from "@z/indexing";
import { MemoryStore } from "@z/store-memory";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CacheCore } from "../src/cache/cache-core.js";
import { ENTRY_OVERHEAD } from "../src/cache/cached-chunk.js";

/** What a load serves: the length and fill of the chunk, or undefined for a missing one. */
type Served = { size: number; fill: number } | undefined;

/** The model: entries oldest first, each with the version and the bytes it counts for. */
class LruModel {
  entries: { key: string; version: number; bytes: number; served: Served }[] = [];
  hits = 0;
  misses = 0;
  evictions = 0;
  constructor(readonly maxBytes: number) {}

  get bytes(): number {
    return this.entries.reduce((sum, e) => sum + e.bytes, 0);
  }

  /** A load; returns what it serves. `written`: the version moved meanwhile. */
  load(key: string, version: number, size: number | undefined, fill: number, written: boolean) {
    const i = this.entries.findIndex((e) => e.key === key);
    if (i >= 0 && this.entries[i].version === version) {
      const [entry] = this.entries.splice(i, 1);
      this.entries.push(entry);
      this.hits++;
      return entry.served;
    }
    if (i >= 0) this.entries.splice(i, 1);
    this.misses++;
    const served = size === undefined ? undefined : { size, fill };
    const bytes = (size ?? 0) + ENTRY_OVERHEAD;
    if (!written && bytes <= this.maxBytes) {
      this.entries.push({ key, version, bytes, served });
      while (this.bytes > this.maxBytes) {
        this.entries.shift();
        this.evictions++;
      }
    }
    return served;
  }
}

type Op =
  | { kind: "load"; key: string; version: number; size?: number; fill: number; written: boolean }
  | { kind: "clear" };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 12,
    arbitrary: fc.record({
      kind: fc.constant("load" as const),
      key: fc.constantFrom("a", "b", "c", "d", "e", "f"),
      version: fc.integer({ min: 0, max: 2 }),
      size: fc.option(fc.integer({ min: 0, max: 400 }), { nil: undefined }),
      fill: fc.integer({ min: 1, max: 255 }),
      written: fc.boolean().map((b) => b && Math.random() < 0.3),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ kind: "clear" as const }) },
);

describe("the cache's entries against a list in LRU order bounded by bytes", () => {
  it("serves, keeps and evicts as the model does, with the same counters", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 1200 }),
        fc.array(opArb, { maxLength: 80 }),
        async (maxBytes, ops) => {
          const core = new CacheCore(maxBytes);
          const model = new LruModel(maxBytes);
          for (const op of ops) {
            if (op.kind === "clear") {
              core.clear();
              model.entries = [];
              continue;
            }
            const { key, version, size, fill, written } = op;
            const chunk = await core.load(
              key,
              version,
              () => (written ? version + 1 : version),
              async () =>
                size === undefined
                  ? undefined
                  : {
                      chunk: { data: new Uint8Array(size).fill(fill), shape: [size], stride: [1] },
                      owned: true,
                    },
            );
            const expected = model.load(key, version, size, fill, written);
            if (expected === undefined) expect(chunk).toBeUndefined();
            else expect(chunk?.data).toEqual(new Uint8Array(expected.size).fill(expected.fill));
            const stats = core.stats();
            expect(stats).toEqual({
              hits: model.hits,
              misses: model.misses,
              evictions: model.evictions,
              entries: model.entries.length,
              bytes: model.bytes,
              maxBytes,
            });
            expect(stats.bytes).toBeLessThanOrEqual(maxBytes);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it("decodes a chunk two loads need at once only once, and a failed decode is not kept", async () => {
    const core = new CacheCore(1 << 20);
    let decodes = 0;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const decode = async () => {
      decodes++;
      await gate;
      return { chunk: { data: new Int32Array([7]), shape: [1], stride: [1] }, owned: true };
    };
    const both = [core.load("k", 0, () => 0, decode), core.load("k", 0, () => 0, decode)];
    release();
    const [a, b] = await Promise.all(both);
    expect(decodes).toBe(1);
    expect(a?.data).toEqual(new Int32Array([7]));
    expect(b).toBe(a);
    expect(core.stats()).toMatchObject({ hits: 1, misses: 1, entries: 1 });
    // Another version does not join, nor read the entry.
    await core.load("k", 1, () => 1, decode);
    expect(decodes).toBe(2);

    const failing = () => Promise.reject(new Error("corrupt"));
    await expect(core.load("x", 0, () => 0, failing)).rejects.toThrow("corrupt");
    expect(core.stats().entries).toBe(1);
  });

  it("a load that joined a decode which failed (its caller aborted) decodes for itself", async () => {
    const core = new CacheCore(1 << 20);
    const first = core.load(
      "k",
      0,
      () => 0,
      () => Promise.reject(new Error("aborted")),
    );
    const second = core.load(
      "k",
      0,
      () => 0,
      async () => ({
        chunk: { data: new Float64Array([1.5]), shape: [1], stride: [1] },
        owned: true,
      }),
    );
    await expect(first).rejects.toThrow("aborted");
    expect((await second)?.data).toEqual(new Float64Array([1.5]));
  });
});

describe("arrays read through a small cache and written through other array objects", () => {
  it("read the values in memory after every write, resize and append", async () => {
    const opArb = fc.oneof(
      fc.record({
        kind: fc.constant("get" as const),
        r: fc.tuple(fc.nat(15), fc.nat(15)),
        c: fc.tuple(fc.nat(11), fc.nat(11)),
        sharded: fc.boolean(),
      }),
      fc.record({
        kind: fc.constant("set" as const),
        r: fc.tuple(fc.nat(15), fc.nat(15)),
        c: fc.tuple(fc.nat(11), fc.nat(11)),
        value: fc.integer({ min: -1000, max: 1000 }),
        sharded: fc.boolean(),
      }),
      fc.record({ kind: fc.constant("append" as const), sharded: fc.boolean() }),
      fc.record({ kind: fc.constant("shrink" as const), sharded: fc.boolean() }),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 1500 }),
        fc.array(opArb, { minLength: 1, maxLength: 25 }),
        async (maxBytes, ops) => {
          const store = new MemoryStore();
          const cache = new ChunkCache({ maxBytes });
          const cols = 12;
          const models: Record<string, number[][]> = {};
          const writers: Record<string, ZarrArray> = {};
          for (const name of ["plain", "sharded"]) {
            const rows = 16;
            const chunking =
              name === "sharded" ? { shards: [8, 6], chunks: [4, 3] } : { chunks: [4, 3] };
            const writer = await createArray(store, {
              path: name,
              shape: [rows, cols],
              dtype: "int32",
              fillValue: -1,
              ...chunking,
            });
            models[name] = Array.from({ length: rows }, () => new Array(cols).fill(-1));
            writers[name] = writer;
          }
          for (const op of ops) {
            const name = op.sharded ? "sharded" : "plain";
            const model = models[name];
            const write = writers[name];
            const rows = model.length;
            if (op.kind === "get" || op.kind === "set") {
              const [r0, r1] = [Math.min(...op.r), Math.max(...op.r) + 1].map((x) =>
                Math.min(x, rows),
              );
              const [c0, c1] = [Math.min(...op.c), Math.max(...op.c) + 1];
              if (op.kind === "set") {
                if (r0 >= r1) continue;
                await write.set([slice(r0, r1), slice(c0, c1)], op.value);
                for (let i = r0; i < r1; i++) for (let j = c0; j < c1; j++) model[i][j] = op.value;
              } else {
                // The reading object learns the shape others changed by opening again; its
                // cache entries stay valid across the reopen.
                const reader = await openArray(store, { path: name, cache });
                const got = await reader.get([slice(r0, r1), slice(c0, c1)]);
                const want = model.slice(r0, r1).flatMap((row) => row.slice(c0, c1));
                expect([...(got.data as Int32Array)]).toEqual(want);
                // A caller changing its result changes nothing the cache holds.
                (got.data as Int32Array).fill(12345);
              }
            } else if (op.kind === "append") {
              await write.append({ data: new Int32Array(3 * cols).fill(7), shape: [3, cols] });
              for (let i = 0; i < 3; i++) model.push(new Array(cols).fill(7));
            } else if (rows > 2) {
              await write.resize([rows - 2, cols]);
              model.length = rows - 2;
            }
            const stats = cache.stats();
            expect(stats.bytes).toBeLessThanOrEqual(maxBytes);
          }
        },
      ),
      { numRuns: 60 },
    );
  }, 120_000);
});
