import path from "node:path";
import { fileURLToPath } from "node:url";
import { FsStore } from "@z/store-fs";
import {
  bundleForBrowser,
  chromiumAvailableOrWarn,
  runInChromium,
  startTestHttpServer,
  tempDir,
} from "@z/test-utils";
import { describe, expect, it } from "vitest";
import { writePyramid } from "../src/index.js";

const here = path.dirname(fileURLToPath(import.meta.url));
const hasChromium = chromiumAvailableOrWarn("OME-Zarr tiles in Chromium");

describe.skipIf(!hasChromium)("OME-Zarr tiles in a real browser", () => {
  it("reads a tile at the level a view needs over HTTP, and an abort stops a stalled read", async () => {
    const sandbox = tempDir("z-ome-browser-");
    const shape = [256, 256];
    const data = Uint16Array.from({ length: 256 * 256 }, (_, i) => (i * 7) % 65_521);
    const image = await writePyramid(
      { data, shape },
      new FsStore(path.join(sandbox.dir, "pyramid.ome.zarr")),
      {
        levels: 3,
        chunks: [32, 32],
        downsample: "nearest",
      },
    );
    const expected = await image.levels[2].array.get();
    const bundle = await bundleForBrowser(path.join(here, "browser/entry.ts"));
    // Level 0's first chunk is never answered: the abort must end the read.
    const server = await startTestHttpServer({
      root: sandbox.dir,
      cors: true,
      stall: ["pyramid.ome.zarr/0/0/0"],
    });
    try {
      const { result, errors } = await runInChromium<{
        level: string;
        shape: number[];
        values: number[];
        aborted: string;
      }>(bundle, server.url);
      // The browser logs the 404s of the probes for metadata documents that are not there.
      expect(errors.filter((e) => !e.includes("404 (Not Found)"))).toEqual([]);
      // A 64 × 48 view of the 256 × 256 image: level 2 (64 × 64) is the coarsest with enough pixels.
      expect(result.level).toBe("2");
      expect(result.shape).toEqual([10, 20]);
      const want: number[] = [];
      for (let y = 3; y < 13; y++)
        for (let x = 5; x < 25; x++) want.push((expected.data as Uint16Array)[y * 64 + x]);
      expect(result.values).toEqual(want);
      expect(result.aborted).toBe("AbortError: scrolled away");
      // The stalled chunk was requested; with one chunk at a time, none after it was.
      const level0 = server.requests.filter((r) =>
        /^pyramid\.ome\.zarr\/0\/\d+\/\d+$/.test(r.path),
      );
      expect(level0.map((r) => r.path)).toEqual(["pyramid.ome.zarr/0/0/0"]);
      const level2 = server.requests.filter((r) =>
        /^pyramid\.ome\.zarr\/2\/\d+\/\d+$/.test(r.path),
      );
      expect(level2.map((r) => r.path).sort()).toEqual(["pyramid.ome.zarr/2/0/0"]);
    } finally {
      await server.stop();
      sandbox.remove();
    }
  }, 120_000);
});
