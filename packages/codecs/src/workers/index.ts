/**
 * Decoding chunks in workers: `createWorkerPool` starts a pool of Web Workers (browsers) or
 * worker_threads (Node; the `node` export condition picks it) behind one interface.
 * @packageDocumentation
 */
export {
  type ChunkDecodePool,
  defaultWorkerCount,
  type PoolDecodeOptions,
  setDefaultDecodePool,
  setDefaultWorkerCount,
} from "./decode-pool.js";
export { defaultDecodePool, isMissingRegistration } from "./decode-pool-default.js";
export type {
  DecodeReply,
  DecodeRequest,
  EncodeRequest,
  ErrorJson,
  PlaceRequest,
} from "./protocol.js";
export { serveDecodeRequests, type WorkerScopeLike } from "./serve.js";
export type { ChunkSpecMessage } from "./spec-message.js";
export { createWorkerPool, type WebWorkerPoolOptions } from "./web-pool.js";
export {
  type PoolWorker,
  type PoolWorkerFactory,
  WorkerFailedError,
  WorkerPool,
  WorkerPoolClosedError,
  type WorkerPoolOptions,
  type WorkerPoolStats,
} from "./worker-pool.js";
