// The Chromium page of chromium.test.ts, bundled by Vite from the built packages: reads fixture
// arrays over HTTP with the umbrella and returns their values in the fixtures' encoding, with
// the decode pool set as the test asks (none: the browser's default, decoding inline; a pool of
// Web Workers with its defaults; a pool every chunk is sent to).
import { createWorkerPool } from "@z/codecs/workers";
import { HttpStore, openArray, setDefaultDecodePool, ZipStore } from "@z/zarr";
import { valuesOf } from "../lib/values-of.mjs";

let pool;

function usePool(mode) {
  pool?.close();
  pool = undefined;
  if (mode === "pool") pool = createWorkerPool();
  else if (mode === "forced") pool = createWorkerPool({ inlineBelow: 0 });
  setDefaultDecodePool(pool ?? undefined);
}

const BRAND = Symbol.for("@z/error");

/** Reads each array; one failure does not stop the others. */
globalThis.__read = async ({ mode, arrays }) => {
  usePool(mode);
  const results = [];
  for (const { i, url, zip, path } of arrays) {
    try {
      const store = zip ? await ZipStore.fromStore(new HttpStore(url), zip) : new HttpStore(url);
      const array = await openArray(store, path ? { path } : {});
      const result = await array.get();
      const { values, direct } = valuesOf(array.dataType, result);
      results.push({ i, shape: result.shape, values, direct });
    } catch (error) {
      results.push({
        i,
        error: {
          name: String(error?.name ?? "Error"),
          message: String(error?.message ?? error)
            .split("\n")[0]
            .slice(0, 400),
          typed: error?.[BRAND] === true,
        },
      });
    }
  }
  return { results, stats: pool?.stats() };
};
