// Where our reads decode (`--workers`): `auto` leaves the library's default alone (in Node, a
// shared pool of cores - 1 workers for codecs that work on the calling thread), 0 decodes on the
// main thread, N starts one pool of N worker_threads and makes it the default pool.
import { createWorkerPool, setDefaultDecodePool } from "@z/codecs/workers";

let pool;

/**
 * The `workers` option for our reads: undefined for `auto` (the library's default), false for 0,
 * else the pool of `count` workers (created once, and set as the default).
 */
export function poolFor(count) {
  if (count === "auto" || count === undefined) return undefined;
  if (!count) {
    setDefaultDecodePool(false);
    return false;
  }
  if (!pool) {
    pool = createWorkerPool({ size: count });
    setDefaultDecodePool(pool);
  }
  return pool;
}

/** Closes the pool, if one was started, and goes back to the library's default. */
export function closePool() {
  pool?.close();
  pool = undefined;
  setDefaultDecodePool(undefined);
}
