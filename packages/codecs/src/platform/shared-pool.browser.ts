// Browser variant of "#shared-pool": a page decodes inline unless it makes a pool itself
// (`createWorkerPool` from `@z/codecs/workers`). Starting Web Workers by default would put the
// worker module into every app's bundle and decode on a thread the app did not ask for.
import type { ChunkDecodePool } from "../workers/decode-pool.js";

/** No pool is started by default in browsers. */
export function sharedDecodePool(): ChunkDecodePool | undefined {
  return undefined;
}

/** None runs in browsers. */
export function runningSharedDecodePool(): ChunkDecodePool | undefined {
  return undefined;
}

/** Browsers start no shared pool, so no codec chain goes to one. */
export function worthDecodingOffThread(): boolean {
  return false;
}

/** Nothing to stop. */
export function stopSharedDecodePool(): void {}
