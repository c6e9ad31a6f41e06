/**
 * Decoding chunks in workers: `createWorkerPool` starts a pool of Web Workers (browsers) or
 * worker_threads (Node; the `node` export condition picks it) behind one interface.
 * @packageDocumentation
 */
export * from "./decode-pool.js";
export type { DecodeReply, DecodeRequest, ErrorJson } from "./protocol.js";
export { serveDecodeRequests, type WorkerScopeLike } from "./serve.js";
export type { ChunkSpecJson } from "./spec-json.js";
export { createWorkerPool, type WebWorkerPoolOptions } from "./web-pool.js";
export * from "./worker-pool.js";
