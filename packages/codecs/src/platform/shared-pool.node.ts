// Node variant of "#shared-pool": the worker_threads pool reads use when they name none and
// `setDefaultDecodePool` set none, started on the first chunk that is worth sending to it.
import { existsSync } from "node:fs";
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { zstdIsNative } from "@z/compression/zstd";
import type { NamedConfig } from "@z/metadata";
import type { ChunkDecodePool } from "../workers/decode-pool.js";
import { createWorkerPool } from "../workers/node-pool.js";
import type { WorkerPool } from "../workers/worker-pool.js";

/** undefined: not tried yet; null: this process runs without one (see {@link startPool}). */
let pool: WorkerPool | null | undefined;

/**
 * The process-wide pool (cores − 1 workers, at least one; see `defaultWorkerCount`), started on
 * first use; undefined on a single core, or where the worker module is not beside this file
 * (a bundle that left it out, the TypeScript sources): reads then decode inline.
 */
export function sharedDecodePool(): ChunkDecodePool | undefined {
  if (pool === undefined) pool = startPool();
  return pool ?? undefined;
}

/** The shared pool if it is running (without starting it). */
export function runningSharedDecodePool(): ChunkDecodePool | undefined {
  return pool ?? undefined;
}

function startPool(): WorkerPool | null {
  if (availableParallelism() < 2) return null;
  const workerUrl = new URL("../workers/node-worker.js", import.meta.url);
  if (workerUrl.protocol !== "file:" || !existsSync(fileURLToPath(workerUrl))) return null;
  return createWorkerPool({ workerUrl });
}

/**
 * Stops the shared pool after a worker failed (it could not start, or crashed): from then on
 * reads that name no pool decode inline, as on a single core.
 */
export function stopSharedDecodePool(): void {
  pool?.close();
  pool = null;
}

/**
 * Codecs whose decoding is cheap, or already runs off the main thread: node:zlib's gzip and
 * zlib (and zstd where Node has it) decode on libuv's thread pool.
 */
const LIGHT = new Set([
  "bytes",
  "transpose",
  "crc32c",
  "numcodecs.crc32c",
  "numcodecs.adler32",
  "numcodecs.crc32",
  "numcodecs.fletcher32",
  "gzip",
  "numcodecs.gzip",
  "zlib",
  "numcodecs.zlib",
]);

/**
 * Whether a chain of codecs does enough work on the calling thread to be worth a trip to the
 * shared pool: blosc, lz4, bz2, lzma, the filters, and zstd where Node lacks a native one.
 */
export function worthDecodingOffThread(codecs: readonly NamedConfig[]): boolean {
  const nativeZstd = zstdIsNative();
  return codecs.some(
    ({ name }) =>
      !LIGHT.has(name) && !(nativeZstd && (name === "zstd" || name === "numcodecs.zstd")),
  );
}
