import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { benchChunkCache, formatChunkCacheReport } from "../lib/chunk-cache.mjs";

describe("chunk cache benchmark", () => {
  it("re-reads a region with and without the cache, checks the values and reports the ratios", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "z-bench-cache-"));
    try {
      const report = await benchChunkCache(
        { size: "tiny", codecs: ["zstd"], repeats: 1 },
        { dataDir },
      );
      expect(report.results.map((r) => r.layout)).toEqual(["plain", "sharded"]);
      for (const r of report.results) {
        // A 128x128 region of 32x32 chunks: 16 chunks, read again from the store without the
        // cache, from memory with it.
        expect(r.chunks).toBe(16);
        expect(r.uncached.reads).toBeGreaterThan(0);
        expect(r.cached.firstReads).toBeGreaterThan(0);
        expect(r.cached.reads).toBe(0);
        expect(r.stats).toMatchObject({ misses: 16, hits: 16, entries: 16 });
      }
      expect(formatChunkCacheReport(report)).toMatch(
        /\| zstd \| sharded \| 16 \| [\d.]+ \| [\d.]+ \| [\d.]+x \| \d+ \| 0 \|/,
      );
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});
