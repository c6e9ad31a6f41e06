/**
 * Decoding chunks in workers, the Node build: `createWorkerPool` starts worker_threads.
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
export { createWorkerPool, type NodeWorkerPoolOptions } from "./node-pool.js";
export type {
  DecodeReply,
  DecodeRequest,
  EncodeRequest,
  ErrorJson,
  PlaceRequest,
} from "./protocol.js";
export { serveDecodeRequests, type WorkerScopeLike } from "./serve.js";
export type { ChunkSpecMessage } from "./spec-message.js";
export {
  type PoolWorker,
  type PoolWorkerFactory,
  WorkerFailedError,
  WorkerPool,
  WorkerPoolClosedError,
  type WorkerPoolOptions,
  type WorkerPoolStats,
} from "./worker-pool.js";
