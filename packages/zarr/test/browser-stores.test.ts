import path from "node:path";
import { fileURLToPath } from "node:url";
import {
  bundleForBrowser,
  chromiumAvailableOrWarn,
  NOT_BUNDLED_IN_PAGES,
  runInChromium,
} from "@z/test-utils";
import { collectKeys, createArray, MemoryStore, openArray, slice } from "@z/zarr";
import { describe, expect, it } from "vitest";

const here = path.dirname(fileURLToPath(import.meta.url));
const hasChromium = chromiumAvailableOrWarn("browser stores");

/** The steps of browser/stores.ts against a MemoryStore: what both browser stores must give. */
async function expected(values: number[]) {
  const store = new MemoryStore();
  const arr = await createArray(store, {
    path: "grid",
    shape: [20, 30],
    chunks: [7, 8],
    dtype: "float32",
    compressors: [{ name: "gzip", configuration: { level: 1 } }],
  });
  await arr.set(null, { data: Float32Array.from(values), shape: [20, 30] });
  await arr.set([slice(2, 9), slice(5, 6)], -1);
  const part = await (await openArray(store, { path: "grid" })).get([
    slice(1, 12, 2),
    slice(null, null, -4),
  ]);
  return {
    part: Array.from(part.data as Float32Array),
    shape: part.shape,
    keys: await collectKeys(store.list()),
  };
}

describe.skipIf(!hasChromium)("IndexedDBStore and OPFSStore through the array API", () => {
  it("create, write, reopen and read give what a MemoryStore gives", async () => {
    const values = Array.from({ length: 600 }, (_, i) => Math.fround(Math.cos(i / 7) * 50));
    const bundle = await bundleForBrowser(path.join(here, "browser/stores.ts"), {
      external: [...NOT_BUNDLED_IN_PAGES],
    });
    const run = await runInChromium<Record<"indexedDB" | "opfs", unknown>>(bundle, { values });
    expect(run.errors).toEqual([]);
    const want = await expected(values);
    expect(want.keys.length).toBeGreaterThan(10); // chunks were written, not just metadata
    expect(run.result.indexedDB).toEqual(want);
    expect(run.result.opfs).toEqual(want);
  }, 180_000);
});
