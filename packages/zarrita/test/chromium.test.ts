import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import {
  bundleForBrowser,
  chromiumAvailableOrWarn,
  NOT_BUNDLED_IN_PAGES,
  repositoryRoot,
  runInChromium,
  startTestHttpServer,
  tempDir,
} from "@z/test-utils";
import { createArray, FsStore } from "@z/zarr";
import { describe, expect, test } from "vitest";

// A page bundled (vite) from the built @z/zarrita, as an app ships it, reads arrays from an
// HTTP server of another origin in Chromium with zarr.open and zarr.get.

const built = existsSync(path.join(repositoryRoot, "packages/zarrita/dist/index.js"));
if (!built)
  console.warn("[zarrita-chromium] SKIPPED: build the packages first (pnpm build; pnpm test does)");
const canRun = built && chromiumAvailableOrWarn("zarrita-chromium");
const entry = path.join(path.dirname(fileURLToPath(import.meta.url)), "browser/page.ts");

const SHAPE = [4, 5];
const VALUES = Int16Array.from({ length: 20 }, (_, i) => (i % 2 ? -1 : 1) * i * 101);

interface Read {
  dtype: string;
  chunks: number[];
  attrs: Record<string, unknown>;
  container: string;
  shape: number[];
  data: number[];
  rows: { shape: number[]; data: number[] };
  point: number;
}

describe.skipIf(!canRun)("a page built from @z/zarrita, in Chromium", () => {
  test("opens HTTP arrays (v3, v2, sharded) with zarr.open and reads them with zarr.get", async () => {
    const { dir, remove } = tempDir("z-zarrita-chromium-");
    const server = await startTestHttpServer({ root: dir, cors: true });
    try {
      // A hierarchy has one format: the v2 array lives in a folder of its own.
      const layouts = {
        v3: { chunks: [2, 2], attributes: { title: "v3" } },
        v2: { chunks: [3, 2], zarrFormat: 2, attributes: { title: "v2" } },
        sharded: { chunks: [1, 5], shards: [2, 5], attributes: { title: "sharded" } },
      } as const;
      for (const [name, layout] of Object.entries(layouts)) {
        const store = new FsStore(path.join(dir, name));
        const arr = await createArray(store, {
          path: "data",
          shape: SHAPE,
          dtype: "int16",
          ...layout,
        });
        await arr.set(null, { data: VALUES, shape: SHAPE });
      }
      const bundle = await bundleForBrowser(entry, {
        external: [...NOT_BUNDLED_IN_PAGES],
        fromBuild: true,
      });
      const { result, errors } = await runInChromium<Record<string, Read>>(bundle, {
        dataUrl: server.url,
      });
      // Chromium logs each 404 of the format probes (`open` looks for v2 metadata, then v3).
      const notProbes = errors.filter((e) => !e.includes("status of 404"));
      expect(notProbes).toEqual([]);
      for (const [name, layout] of Object.entries(layouts)) {
        const read = result[name] as Read;
        expect(read.dtype).toBe("int16");
        expect(read.chunks).toEqual(layout.chunks);
        expect(read.attrs).toEqual(layout.attributes);
        expect(read.container).toBe("Int16Array");
        expect(read.shape).toEqual(SHAPE);
        expect(read.data).toEqual(Array.from(VALUES));
        expect(read.rows).toEqual({ shape: [2, 5], data: Array.from(VALUES.subarray(5, 15)) });
        expect(read.point).toBe(VALUES[13]);
      }
    } finally {
      await server.stop();
      remove();
    }
  }, 180_000);
});
