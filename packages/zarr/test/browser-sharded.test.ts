import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromiumAvailableOrWarn, runPageOnDataServer, tempDir } from "@z/test-utils";
import { createArray, FsStore, type ShardingCodec } from "@z/zarr";
import { describe, expect, it } from "vitest";
import type { PageRequest } from "./browser/page-fetch.js";

const here = path.dirname(fileURLToPath(import.meta.url));
const hasChromium = chromiumAvailableOrWarn("browser sharded");

describe.skipIf(!hasChromium)("sharded partial reads over HTTP in Chromium", () => {
  it("one inner chunk costs the shard index and that chunk, as the server logged", async () => {
    const sandbox = tempDir("z-browser-shard-");
    const data = Float32Array.from({ length: 64 * 64 }, (_, i) => Math.sin(i / 50) * 100);
    // One 64x64 shard of sixteen 16x16 inner chunks, each zstd-compressed.
    const arr = await createArray(new FsStore(sandbox.dir), {
      path: "volume",
      shape: [64, 64],
      shards: [64, 64],
      chunks: [16, 16],
      dtype: "float32",
      compressors: [{ name: "zstd", configuration: { level: 3, checksum: false } }],
    });
    await arr.set(null, { data, shape: [64, 64] });
    try {
      const run = await runPageOnDataServer<{
        shape: number[];
        part: number[];
        partShape: number[];
        reading: PageRequest[];
      }>(path.join(here, "browser/sharded.ts"), sandbox.dir);
      expect(run.errors).toEqual([]);
      const r = run.result;
      expect(r.shape).toEqual([64, 64]);
      expect(r.partShape).toEqual([16, 16]);
      expect(r.part).toEqual(
        Array.from({ length: 256 }, (_, k) => data[(16 + Math.floor(k / 16)) * 64 + 32 + (k % 16)]),
      );

      // The page's reads, checked against the shard itself: the index (a suffix range) and the
      // inner chunk (1, 2) by the bytes the index gives for it.
      const codec = arr.access.runner.pipeline.arrayToBytes.codec as ShardingCodec;
      const shard = (await new FsStore(sandbox.dir).get("volume/c/0/0"))!;
      const index = await codec.decodeIndex(shard.subarray(shard.length - codec.indexSize));
      const entry = index.entry(codec.innerIndex([1, 2]))!;
      expect(r.reading.map((q) => [new URL(q.url).pathname, q.range, q.bytes])).toEqual([
        ["/volume/c/0/0", `bytes=-${codec.indexSize}`, codec.indexSize],
        ["/volume/c/0/0", `bytes=${entry.offset}-${entry.offset + entry.nbytes - 1}`, entry.nbytes],
      ]);
      expect(codec.indexSize + entry.nbytes).toBeLessThan(shard.length / 8);

      // The server saw the same: every request the page made, with the same ranges and bytes.
      const served = run.served.filter((q) => q.method !== "OPTIONS" && q.path === "volume/c/0/0");
      expect(served.map((q) => [q.range, q.bytes])).toEqual(
        r.reading.map((q) => [q.range, q.bytes]),
      );
    } finally {
      sandbox.remove();
    }
  }, 180_000);
});
