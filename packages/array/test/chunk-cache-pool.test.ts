// The chunk cache with the default decode pool: the entries are the chunks the pool's workers
// decoded (every chunk is sent to a worker here), and a second read sends none. Node cannot
// run the TypeScript worker module itself, so the test bundles it with Vite first, as the
// worker pool's own tests do.
import { mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { ChunkCache, createArray, openArray } from "@z/array";
import { setDefaultDecodePool } from "@z/codecs";
import { createWorkerPool, type WorkerPool } from "@z/codecs/workers";
import { slice } from "@z/indexing";
import { MemoryStore } from "@z/store-memory";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const here = path.dirname(fileURLToPath(import.meta.url));
const codecsDir = path.join(here, "../../codecs");
const outDir = path.join(
  codecsDir,
  "node_modules/.cache/z-chunk-cache-worker",
  String(process.pid),
);

async function buildWorker(): Promise<URL> {
  const { build } = await import("vite");
  const conditions = ["source", "node", "import", "module", "default"];
  mkdirSync(outDir, { recursive: true });
  await build({
    configFile: false,
    logLevel: "error",
    resolve: { conditions },
    ssr: { resolve: { conditions, externalConditions: conditions } },
    build: {
      ssr: path.join(codecsDir, "src/workers/node-worker.ts"),
      outDir,
      emptyOutDir: true,
      target: "node20",
      minify: false,
      rollupOptions: {
        external: (id) => /^(node:|[a-z@])/.test(id) && !id.startsWith("@z/"),
        output: { format: "es", entryFileNames: "node-worker.mjs" },
      },
    },
  });
  return pathToFileURL(path.join(outDir, "node-worker.mjs"));
}

const blosc = {
  name: "blosc",
  configuration: { cname: "lz4", clevel: 5, shuffle: "shuffle", typesize: 4, blocksize: 0 },
};

describe("the chunk cache with the default decode pool", () => {
  let pool: WorkerPool;

  beforeAll(async () => {
    pool = createWorkerPool({ workerUrl: await buildWorker(), size: 2, inlineBelow: 0 });
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
