import { createArray, openArray, ZarrArray } from "@z/array";
import { type Slice, slice } from "@z/indexing";
import { LoggingStore, MapStore } from "@z/store-core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Reference } from "./reference.js";

/*
 * Arrays whose shards go through the pipeline's partial I/O (sharding, nested sharding) and
 * arrays whose shards are read and written whole (a gzip after the sharding codec, a transpose
 * before it), all written by our own code: random writes, then reads, against a plain model.
 */

const SHAPE = [10, 13];
const bytes = { name: "bytes", configuration: { endian: "little" } };
const gzip = { name: "gzip", configuration: { level: 1 } };
const sharding = (chunkShape: number[], codecs: object[]) => ({
  name: "sharding_indexed",
  configuration: { chunk_shape: chunkShape, codecs },
});
const nested = sharding([4, 4], [sharding([2, 2], [bytes, gzip])]);

const SETUPS: Record<string, { codecs: object[]; partial: boolean }> = {
  sharding: { codecs: [sharding([2, 2], [bytes, gzip])], partial: true },
  "nested sharding": { codecs: [nested], partial: true },
  "gzip after sharding": { codecs: [sharding([2, 2], [bytes]), gzip], partial: false },
  "gzip after nested sharding": { codecs: [nested, gzip], partial: false },
  "transpose before sharding": {
    codecs: [{ name: "transpose", configuration: { order: [1, 0] } }, sharding([2, 2], [bytes])],
    partial: false,
  },
};

async function create(store: MapStore | LoggingStore, codecs: object[]) {
  return createArray(store, {
    shape: SHAPE,
    chunks: [8, 8],
    dtype: "int32",
    fillValue: 0,
    codecs: codecs as never,
  });
}

const bound = (length: number) =>
  fc
    .tuple(fc.integer({ min: 0, max: length }), fc.integer({ min: 0, max: length }))
    .map(([a, b]): Slice => slice(Math.min(a, b), Math.max(a, b)));

const writeArb = fc.record({
  region: fc.tuple(bound(SHAPE[0]), bound(SHAPE[1])),
  // 0 is the fill value: writing it empties inner chunks and shards.
  value: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 1000 }), fc.constant("values")),
  salt: fc.nat({ max: 100 }),
});

describe("sharded arrays read and write right, whatever the codecs around the sharding codec", () => {
  for (const [label, setup] of Object.entries(SETUPS)) {
    it(label, async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(writeArb, { minLength: 1, maxLength: 5 }),
          fc.tuple(bound(SHAPE[0]), bound(SHAPE[1])),
          async (writes, readRegion) => {
            const map = new MapStore();
            const arr = await create(map, setup.codecs);
            expect(arr.access.runner.pipeline.supportsPartialIo).toBe(setup.partial);
            const ref = new Reference(SHAPE);
            for (const { region, value, salt } of writes) {
              const { positions, shape } = ref.orthogonal(region);
              const at = (k: number) => (value === "values" ? (k * 31 + salt) % 7 : value);
              if (value === "values") {
                const data = Int32Array.from({ length: positions.length }, (_, k) => at(k));
                await arr.set(region, { data, shape });
              } else {
                await arr.set(region, value);
              }
              ref.write(positions, at);
              expect(Array.from((await arr.get()).data)).toEqual(ref.data);
            }
            // A fresh array object reads what was written (no cached index involved).
            const fresh = await openArray(map);
            const { positions } = ref.orthogonal(readRegion);
            expect(Array.from((await fresh.get(readRegion)).data)).toEqual(ref.read(positions));
            // Shards left all fill value are not stored.
            const keys = [...map.map.keys()].filter((k) => k.startsWith("c/"));
            const anyData = ref.data.some((v) => v !== 0);
            if (!anyData) expect(keys).toEqual([]);
          },
        ),
        { numRuns: 25 },
      );
    });
  }
});

describe("nested sharding reads only the bytes a selection needs", () => {
  it("one innermost chunk: the outer index, the inner shard's index, the chunk", async () => {
    const map = new MapStore();
    const store = new LoggingStore(map);
    const arr = await create(store, [sharding([4, 4], [sharding([2, 2], [bytes])])]);
    await arr.set(null, {
      data: Int32Array.from({ length: 130 }, (_, i) => i + 1),
      shape: SHAPE,
    });
    const cold = new ZarrArray(store, "", arr.metadata);
    store.clear();
    const got = await cold.get([slice(4, 6), slice(6, 8)]);
    expect(Array.from(got.data)).toEqual([59, 60, 72, 73]);
    const reads = store.requests.filter((r) => r.method === "get");
    expect(reads.map((r) => r.key)).toEqual(["c/0/0", "c/0/0", "c/0/0"]);
    // 4 inner shards of 4 chunks of 16 bytes, with indexes of 4 entries: the outer index
    // (4 * 16 + 4 bytes with the crc32c), one inner index, one 2x2 int32 chunk.
    expect(reads.map((r) => r.bytes)).toEqual([68, 68, 16]);
  });

  it("a whole shard: the outer index, then its inner shards in one request", async () => {
    const map = new MapStore();
    const store = new LoggingStore(map);
    const arr = await create(store, [sharding([4, 4], [sharding([2, 2], [bytes])])]);
    const data = Int32Array.from({ length: 130 }, (_, i) => i + 1);
    await arr.set(null, { data, shape: SHAPE });
    const cold = new ZarrArray(store, "", arr.metadata);
    store.clear();
    const got = await cold.get([slice(0, 8), slice(0, 8)]);
    expect(Array.from(got.data)).toEqual(
      Array.from({ length: 64 }, (_, k) => data[Math.floor(k / 8) * 13 + (k % 8)]),
    );
    const reads = store.requests.filter((r) => r.method === "get");
    expect(reads.map((r) => r.key)).toEqual(["c/0/0", "c/0/0"]);
    expect(reads[0].bytes + reads[1].bytes).toBe(map.map.get("c/0/0")!.length);
  });
});
