// The browser bench's page (bundled by lib/browser.mjs with Vite, run in headless Chromium): reads
// a large array over HTTP whole, with @z (decoding in a pool of Web Workers, or inline) or with
// zarrita, times it, and checks every element against the generating formula. Nothing but the
// time leaves the page.
import { createWorkerPool } from "@z/codecs/workers";
import { openArray } from "@z/zarr";
import * as zarrita from "zarrita";
import { checkLargeArray } from "../lib/large-values.mjs";

let pool;

/** The decode pool for `workers`: `auto` (cores - 1 workers), 0 (inline) or a count. */
function poolFor(workers) {
  if (workers === 0) return false;
  pool ??= createWorkerPool(workers === "auto" ? {} : { size: workers });
  return pool;
}

/** A queue (zarrita's `createQueue` interface: add, onIdle) running at most `limit` tasks. */
function boundedQueue(limit) {
  const waiting = [];
  const results = [];
  let running = 0;
  const next = () => {
    while (running < limit && waiting.length > 0) {
      const { fn, resolve, reject } = waiting.shift();
      running++;
      fn()
        .then(resolve, reject)
        .finally(() => {
          running--;
          next();
        });
    }
  };
  return {
    add(fn) {
      results.push(
        new Promise((resolve, reject) => {
          waiting.push({ fn, resolve, reject });
          next();
        }),
      );
    },
    onIdle: () => Promise.all(results),
  };
}

/**
 * Each library opens the array at `url` (as a user would) and reads `selection` (all: null).
 * zarrita keeps at most `concurrency` chunk reads in flight: its default queue starts every
 * chunk's read at once, and Chromium refuses thousands of requests at a time
 * (net::ERR_INSUFFICIENT_RESOURCES, as with the sharded arrays' inner chunks); its `createQueue`
 * option is how a page bounds them.
 */
const READERS = {
  async ours(url, selection, workers) {
    const arr = await openArray(url);
    return arr.get(selection, { workers: poolFor(workers) });
  },
  async zarrita(url, selection, _workers, concurrency) {
    const arr = await zarrita.open.v3(new zarrita.FetchStore(url), { kind: "array" });
    const options = { createQueue: () => boundedQueue(concurrency) };
    return zarrita.get(arr, selection, options);
  },
};

/** One row of the array: loads the codecs, starts the workers, warms the connection. */
async function warmUp({ lib, url, workers, concurrency }) {
  const result = await READERS[lib](url, [0, 0, null], workers, concurrency);
  return result.data.length;
}

/** One timed full read (a collection first, untimed), checked afterwards. */
async function readAll({ lib, url, workers, concurrency, edge }) {
  globalThis.gc?.();
  const start = performance.now();
  const result = await READERS[lib](url, null, workers, concurrency);
  const seconds = (performance.now() - start) / 1000;
  checkLargeArray(result, edge, `browser full read of ${url} by ${lib}`);
  const stats = pool?.stats();
  // On a cross-origin isolated page our pooled reads return shared memory the workers filled.
  const shared =
    typeof SharedArrayBuffer === "function" && result.data.buffer instanceof SharedArrayBuffer;
  return { seconds, workers: stats?.workers ?? 0, dispatched: stats?.dispatched ?? 0, shared };
}

Object.assign(globalThis, { __warmUp: warmUp, __readAll: readAll });
