// Re-reading a region in the browser with and without a ChunkCache: the page counts the
// requests each read makes.
import { ChunkCache, HttpStore, openArray, slice } from "@z/zarr";
import { type PageRequest, recordingFetch } from "./page-fetch.js";

(globalThis as Record<string, unknown>).__run = async (arg: { dataUrl: string }) => {
  const region = [slice(8, 40), slice(4, 60)];
  const counts: Record<string, number[]> = {};
  const values: Record<string, number[][]> = {};
  for (const path of ["plain", "sharded"]) {
    for (const cache of [undefined, new ChunkCache({ maxBytes: 2 ** 20 })]) {
      const log: PageRequest[] = [];
      const arr = await openArray(new HttpStore(arg.dataUrl, { fetch: recordingFetch(log) }), {
        path,
        cache,
      });
      const name = `${path} ${cache ? "cached" : "uncached"}`;
      counts[name] = [];
      values[name] = [];
      for (let read = 0; read < 2; read++) {
        log.length = 0;
        const got = await arr.get(region);
        counts[name].push(log.length);
        values[name].push(Array.from(got.data as Float32Array));
        (got.data as Float32Array).fill(0); // changes no entry
      }
      if (cache) counts[`${name} stats`] = [cache.stats().hits, cache.stats().misses];
    }
  }
  return { counts, values };
};
