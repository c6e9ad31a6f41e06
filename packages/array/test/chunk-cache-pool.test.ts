// The chunk cache with the default decode pool: the entries are the chunks the pool's workers
// decoded (every chunk is sent to a worker here), and a second read sends none. Node cannot
// run the TypeScript worker module itself, so the test bundles it first (bundleNodeWorker).
import { rmSync } from "node:fs";
import { ChunkCache, createArray, openArray } from "@z/array";
import { setDefaultDecodePool } from "@z/codecs";
import { createWorkerPool, type WorkerPool } from "@z/codecs/workers";
import { slice } from "@z/indexing";
import { MemoryStore } from "@z/store-memory";
import { bundleNodeWorker, nodeWorkerDir } from "@z/test-utils";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const outDir = nodeWorkerDir("z-chunk-cache-worker");

const blosc = {
  name: "blosc",
  configuration: { cname: "lz4", clevel: 5, shuffle: "shuffle", typesize: 4, blocksize: 0 },
};

describe("the chunk cache with the default decode pool", () => {
  let pool: WorkerPool;

  beforeAll(async () => {
    pool = createWorkerPool({ workerUrl: await bundleNodeWorker(outDir), size: 2, inlineBelow: 0 });
    setDefaultDecodePool(pool);
  }, 180_000);

  afterAll(() => {
    setDefaultDecodePool(undefined);
    pool?.close();
    rmSync(outDir, { recursive: true, force: true });
  });

  it.each([false, true])(
    "holds what the workers decoded; a second read sends them nothing (sharded: %s)",
    async (sharded) => {
      const store = new MemoryStore();
      const values = Float32Array.from({ length: 64 * 64 }, (_, i) => Math.sin(i / 7) * 100);
      const arr = await createArray(store, {
        shape: [64, 64],
        dtype: "float32",
        codecs: [{ name: "bytes" }, blosc],
        ...(sharded ? { shards: [32, 32], chunks: [16, 16] } : { chunks: [16, 16] }),
      });
      await arr.set(null, { data: values, shape: [64, 64] });
      const cache = new ChunkCache({ maxBytes: 2 ** 20 });
      const cached = await openArray(store, { cache });
      const want = (r0: number, r1: number, c0: number, c1: number) => {
        const out: number[] = [];
        for (let i = r0; i < r1; i++) for (let j = c0; j < c1; j++) out.push(values[i * 64 + j]);
        return out;
      };
      const before = pool.stats().dispatched;
      const first = await cached.get([slice(8, 40), slice(0, 48)]);
      expect([...first.data]).toEqual(want(8, 40, 0, 48));
      // 3 rows x 3 columns of 16x16 chunks, each decoded in a worker.
      expect(pool.stats().dispatched - before).toBe(9);
      expect(cache.stats()).toMatchObject({ misses: 9, entries: 9, bytes: 9 * (16 * 16 * 4 + 64) });
      (first.data as Float32Array).fill(0);
      const second = await cached.get([slice(8, 40), slice(0, 48)]);
      expect([...second.data]).toEqual(want(8, 40, 0, 48));
      expect(pool.stats().dispatched - before).toBe(9);
      expect(cache.stats()).toMatchObject({ misses: 9, hits: 9 });
      // A whole chunk read from the cache is a copy too.
      const whole = await cached.get([slice(16, 32), slice(16, 32)]);
      (whole.data as Float32Array).fill(-1);
      expect([...(await cached.get([slice(16, 32), slice(16, 32)])).data]).toEqual(
        want(16, 32, 16, 32),
      );
      // Without the cache, every read sends every chunk.
      const uncached = await openArray(store);
      const start = pool.stats().dispatched;
      for (let i = 0; i < 2; i++) await uncached.get([slice(8, 40), slice(0, 48)]);
      expect(pool.stats().dispatched - start).toBe(18);
    },
  );
});
