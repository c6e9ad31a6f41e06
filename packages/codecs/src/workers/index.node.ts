/**
 * Decoding chunks in workers, the Node build: `createWorkerPool` starts worker_threads.
 * @packageDocumentation
 */
export * from "./decode-pool.js";
export { createWorkerPool, type NodeWorkerPoolOptions } from "./node-pool.js";
export type { DecodeReply, DecodeRequest, ErrorJson } from "./protocol.js";
export { serveDecodeRequests, type WorkerScopeLike } from "./serve.js";
export type { ChunkSpecJson } from "./spec-json.js";
export * from "./worker-pool.js";
