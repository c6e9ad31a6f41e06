import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import { defaultWorkerCount } from "./decode-pool.js";
import type { DecodeReply } from "./protocol.js";
import { type PoolWorkerFactory, WorkerPool, type WorkerPoolOptions } from "./worker-pool.js";

/** Options of a Node worker pool. */
export interface NodeWorkerPoolOptions extends WorkerPoolOptions {
  /**
   * The worker module. Default: the package's own (`node-worker.js` next to this file), which
   * knows every codec `@z/codecs` registers; pass your own (one that imports more
   * registrations and calls `serveDecodeRequests`) to decode extension codecs in workers too.
   */
  workerUrl?: URL;
}

/**
 * A pool of worker_threads that decode chunks, for `arr.get(selection, { workers: pool })` or
 * `setDefaultDecodePool(pool)`. An idle pool does not keep the process alive (a worker with a
 * decode to finish does). Default size: cores − 1 (`os.availableParallelism()`; see
 * `defaultWorkerCount`).
 * @example
 * ```ts
 * import { createWorkerPool } from "@z/codecs/workers";
 * const pool = createWorkerPool();
 * const { data } = await arr.get(null, { workers: pool });
 * pool.close();
 * ```
 * @category Workers
 */
export function createWorkerPool(options: NodeWorkerPoolOptions = {}): WorkerPool {
  const url = options.workerUrl ?? new URL("./node-worker.js", import.meta.url);
  const start: PoolWorkerFactory = (onReply, onFailure) => {
    const worker = new Worker(url, { name: "zarr-codecs" });
    worker.on("message", (reply: DecodeReply) => onReply(reply));
    worker.on("error", (error: Error) => onFailure(error));
    worker.on("exit", (code) => {
      if (code !== 0) onFailure(new Error(`the worker exited with code ${code}`));
    });
    // Idle workers do not keep the process alive; one with a decode to finish does (the pool
    // refs it while busy). After the listeners: adding a "message" listener refs it again.
    worker.unref();
    return {
      postMessage: (message, transfer) => worker.postMessage(message, transfer),
      terminate: () => worker.terminate(),
      busy: (busy) => (busy ? worker.ref() : worker.unref()),
    };
  };
  return new WorkerPool(start, {
    ...options,
    size: options.size ?? defaultWorkerCount(availableParallelism()),
  });
}
