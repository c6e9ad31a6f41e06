// The worker pool our reads use (`--workers N`): none for 0 (decoding on the main thread), else
// one pool of N worker_threads, also made the default pool so that every read uses it.
import { createWorkerPool, setDefaultDecodePool } from "@z/codecs/workers";

let pool;

/** The pool for `count` workers (created once, and set as the default), or undefined for 0. */
export function poolFor(count) {
  if (!count) return undefined;
  if (!pool) {
    pool = createWorkerPool({ size: count });
    setDefaultDecodePool(pool);
  }
  return pool;
}

/** Closes the pool, if one was started. */
export function closePool() {
  pool?.close();
  pool = undefined;
  setDefaultDecodePool(undefined);
}
