import type { DecodeReply } from "./protocol.js";
import { type PoolWorkerFactory, WorkerPool, type WorkerPoolOptions } from "./worker-pool.js";

/** The Web Worker API this module uses (declared here: the package builds without DOM types). */
interface WebWorker {
  postMessage(message: unknown, transfer: ArrayBuffer[]): void;
  terminate(): void;
  onmessage: ((event: { data: DecodeReply }) => void) | null;
  onerror: ((event: { message?: string; preventDefault(): void }) => void) | null;
  onmessageerror: ((event: unknown) => void) | null;
}
declare const Worker: new (url: URL, options: { type: "module"; name?: string }) => WebWorker;

/** Options of a browser worker pool. */
export interface WebWorkerPoolOptions extends WorkerPoolOptions {
  /**
   * Starts one worker. Default: the package's own worker module, which knows every codec
   * `@z/codecs` registers; pass your own (one that imports more registrations and calls
   * `serveDecodeRequests(self)`) to decode extension codecs in workers too.
   */
  createWorker?: () => WebWorker;
}

/**
 * A pool of Web Workers that decode chunks, for `arr.get(selection, { workers: pool })` or
 * `setDefaultDecodePool(pool)`. Bundlers (Vite, webpack 5, Rollup with the usual plugin)
 * bundle the worker module by themselves: it is referenced as
 * `new Worker(new URL("./browser-worker.js", import.meta.url), { type: "module" })`.
 * @example
 * ```ts
 * import { createWorkerPool } from "@z/codecs/workers";
 * const pool = createWorkerPool({ size: 4 });
 * const { data } = await arr.get([0, null, null], { workers: pool });
 * pool.close();
 * ```
 * @category Workers
 */
export function createWorkerPool(options: WebWorkerPoolOptions = {}): WorkerPool {
  const create =
    options.createWorker ??
    (() =>
      new Worker(new URL("./browser-worker.js", import.meta.url), {
        type: "module",
        name: "zarr-codecs",
      }));
  const start: PoolWorkerFactory = (onReply, onFailure) => {
    const worker = create();
    worker.onmessage = (event) => onReply(event.data);
    worker.onerror = (event) => {
      event.preventDefault();
      onFailure(new Error(event.message ?? "the worker script failed to load or run"));
    };
    worker.onmessageerror = () => onFailure(new Error("a reply could not be deserialized"));
    return worker;
  };
  return new WorkerPool(start, options);
}
