import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromiumAvailableOrWarn, runPageOnDataServer, tempDir } from "@z/test-utils";
import { createArray, FsStore } from "@z/zarr";
import { describe, expect, it } from "vitest";

const here = path.dirname(fileURLToPath(import.meta.url));
const hasChromium = chromiumAvailableOrWarn("browser chunk cache");

describe.skipIf(!hasChromium)("a ChunkCache over HTTP in Chromium", () => {
  it("a region read again makes no request with the cache, and as many as the first without", async () => {
    const sandbox = tempDir("z-browser-chunk-cache-");
    const data = Float32Array.from({ length: 64 * 64 }, (_, i) => Math.cos(i / 9) * 50);
    for (const [name, chunking] of [
      ["plain", { chunks: [16, 16] }],
      ["sharded", { shards: [32, 32], chunks: [16, 16] }],
    ] as const) {
      const arr = await createArray(new FsStore(sandbox.dir), {
        path: name,
        shape: [64, 64],
        dtype: "float32",
        compressors: [{ name: "zstd", configuration: { level: 3, checksum: false } }],
        ...chunking,
      });
      await arr.set(null, { data, shape: [64, 64] });
    }
    const want: number[] = [];
    for (let i = 8; i < 40; i++) for (let j = 4; j < 60; j++) want.push(data[i * 64 + j]);
    try {
      const run = await runPageOnDataServer<{
        counts: Record<string, number[]>;
        values: Record<string, number[][]>;
      }>(path.join(here, "browser/chunk-cache.ts"), sandbox.dir);
      expect(run.errors).toEqual([]);
      const { counts, values } = run.result;
      for (const reads of Object.values(values)) expect(reads).toEqual([want, want]);
      // The region touches 3x4 chunks: one request each (a plain array), or the shards'
      // indexes and their chunks' merged ranges (sharded).
      expect(counts["plain uncached"]).toEqual([12, 12]);
      expect(counts["plain cached"]).toEqual([12, 0]);
      expect(counts["plain cached stats"]).toEqual([12, 12]);
      const [first, again] = counts["sharded uncached"];
      expect(first).toBeGreaterThan(0);
      expect(again).toBeGreaterThan(0); // the shard indexes are kept; the chunks are read again
      expect(counts["sharded cached"]).toEqual([first, 0]);
      expect(counts["sharded cached stats"]).toEqual([12, 12]);
      // The server saw the page's chunk requests and no more.
      const chunkGets = run.served.filter((q) => q.method === "GET" && /\/c\//.test(q.path));
      const pageTotal = ["plain", "sharded"].flatMap((p) =>
        ["uncached", "cached"].flatMap((c) => counts[`${p} ${c}`]),
      );
      expect(chunkGets.length).toBe(pageTotal.reduce((a, b) => a + b, 0));
    } finally {
      sandbox.remove();
    }
  }, 180_000);
});
