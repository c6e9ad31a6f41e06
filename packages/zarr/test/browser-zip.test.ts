import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromiumAvailableOrWarn, runPageOnDataServer, tempDir } from "@z/test-utils";
import { createArray, createZipFile, MemoryStore, openArray, slice } from "@z/zarr";
import { describe, expect, it } from "vitest";
import type { PageRequest } from "./browser/page-fetch.js";

const here = path.dirname(fileURLToPath(import.meta.url));
const hasChromium = chromiumAvailableOrWarn("browser zip");

describe.skipIf(!hasChromium)("a zip archive over HTTP in Chromium", () => {
  it("reads an array from the archive with byte ranges only", async () => {
    const sandbox = tempDir("z-browser-zip-");
    const values = Int32Array.from({ length: 8 * 9 }, (_, i) => i * i - 500);
    const write = async (store: Parameters<typeof createArray>[0]) => {
      const arr = await createArray(store, {
        path: "grid",
        shape: [8, 9],
        chunks: [3, 4],
        dtype: "int32",
        compressors: [{ name: "gzip", configuration: { level: 1 } }],
      });
      await arr.set(null, { data: values, shape: [8, 9] });
    };
    const zip = await createZipFile(path.join(sandbox.dir, "archive.zip"));
    await write(zip);
    await zip.close();
    // The expected selection, from the same array in memory.
    const memory = new MemoryStore();
    await write(memory);
    const expectedPart = await (await openArray(memory, { path: "grid" })).get([
      slice(2, 5),
      slice(null, null, 3),
    ]);
    try {
      const run = await runPageOnDataServer<{
        whole: number[];
        part: number[];
        partShape: number[];
        requests: PageRequest[];
      }>(path.join(here, "browser/zip.ts"), sandbox.dir);
      expect(run.errors).toEqual([]);
      expect(run.result.whole).toEqual([...values]);
      expect(run.result.part).toEqual([...(expectedPart.data as Int32Array)]);
      expect(run.result.partShape).toEqual(expectedPart.shape);
      // Every read of the archive was a range read: it was never downloaded whole.
      const served = run.served.filter((q) => q.method === "GET");
      expect(served.length).toBe(run.result.requests.filter((q) => q.method === "GET").length);
      expect(served.length).toBeGreaterThan(0);
      expect(served.every((q) => q.path === "archive.zip" && q.status === 206)).toBe(true);
    } finally {
      sandbox.remove();
    }
  }, 180_000);
});
