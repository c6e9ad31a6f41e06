import type { NamedConfig } from "@z/metadata";
import type { Chunk, ChunkRegion, TypedArray } from "@z/ndarray";
import type { ChunkSpec } from "../types.js";
import {
  chosenWorkerCount,
  storeDefaultDecodePool,
  storeDefaultWorkerCount,
} from "./decode-pool-default.js";

/** Options of one {@link ChunkDecodePool.decode} call. */
export interface PoolDecodeOptions {
  /** The Zarr format of the array the codecs come from (some numcodecs configurations differ). */
  zarrFormat: 2 | 3;
  /** Stop: a queued decode is dropped, a running one's result is discarded. */
  signal?: AbortSignal;
  /**
   * Whether the pool may take over `bytes` (transfer its buffer to a worker, leaving it empty
   * here). Only for bytes nothing else holds; otherwise the pool copies them, unless they lie in
   * a SharedArrayBuffer: those are shared with the worker, and the caller must leave them
   * unchanged until the decode settles.
   */
  transfer?: boolean;
  /**
   * Decodes on the calling thread with the caller's own pipeline, for chunks the pool keeps
   * inline (small ones, containers that are not TypedArrays). Without it the pool builds a
   * pipeline of its own for them.
   */
  inline?: (bytes: Uint8Array) => Promise<Chunk>;
}

/**
 * A result in shared memory and the parts of one chunk that go into it, for
 * {@link ChunkDecodePool.decodeInto}.
 */
export interface PlaceTarget {
  /** The result: a TypedArray over a SharedArrayBuffer. */
  out: TypedArray;
  /** The chunk's parts: strided regions of the chunk and their places in `out`. */
  regions: readonly ChunkRegion[];
  /** Container slots per element (2 for interleaved complex). */
  lanes: number;
}

/**
 * Something that decodes chunks away from the calling thread: a pool of Web Workers or
 * worker_threads (`createWorkerPool` from `@z/codecs/workers`). Arrays use it for a read when
 * given `{ workers: pool }` or when one is set with {@link setDefaultDecodePool}.
 * @category Workers
 */
export interface ChunkDecodePool {
  /**
   * Decodes stored chunk bytes through the codec chain `codecs` for chunks of `spec`: the
   * same result as `CodecPipeline.create(codecs, spec, zarrFormat).decode(bytes)`.
   * @throws DecodeError, ChecksumError (as the pipeline would), the signal's reason on abort
   */
  decode(
    bytes: Uint8Array,
    codecs: readonly NamedConfig[],
    spec: ChunkSpec,
    options: PoolDecodeOptions,
  ): Promise<Chunk>;
  /**
   * Optional: encodes a chunk through the codec chain `codecs` away from the calling thread,
   * giving the same bytes as `CodecPipeline.create(codecs, spec, zarrFormat).encode(chunk)`.
   * `options.transfer` says the chunk's buffer may move to the worker.
   */
  encode?(
    chunk: Chunk,
    codecs: readonly NamedConfig[],
    spec: ChunkSpec,
    options: PoolDecodeOptions,
  ): Promise<Uint8Array>;
  /**
   * Optional: decodes as {@link decode} does, and has the worker copy the chunk's regions into
   * a result in shared memory, so the calling thread neither copies nor touches that memory
   * first. Resolves to undefined when the regions are in place, or to the decoded chunk when the
   * pool decoded it on the calling thread after all (the caller copies it then).
   */
  decodeInto?(
    bytes: Uint8Array,
    codecs: readonly NamedConfig[],
    spec: ChunkSpec,
    target: PlaceTarget,
    options: PoolDecodeOptions,
  ): Promise<Chunk | undefined>;
}

/**
 * Sets the pool every array read decodes its chunks in unless the call says otherwise
 * (`{ workers: false }` or another pool); `false` decodes on the calling thread by default;
 * `undefined` goes back to the platform's way. That is, in Node on two or more cores, a shared
 * pool of cores − 1 worker_threads, started on the first chunk whose codecs do enough work on
 * the calling thread (blosc, lz4, the filters, zstd before Node 22.15; not gzip or zlib, which
 * node:zlib already decodes on its own threads); the calling thread reads, dispatches and copies.
 * In browsers, decoding stays inline unless a pool is set.
 * @example
 * ```ts
 * import { createWorkerPool } from "@z/codecs/workers";
 * setDefaultDecodePool(createWorkerPool({ size: 4 }));
 * setDefaultDecodePool(false); // decode on the calling thread
 * ```
 * @category Workers
 */
export function setDefaultDecodePool(pool: ChunkDecodePool | false | undefined): void {
  if (pool !== undefined && pool !== false && typeof pool?.decode !== "function")
    throw new TypeError(
      "setDefaultDecodePool takes a pool (with a decode method), false or undefined",
    );
  storeDefaultDecodePool(pool);
}

/**
 * Sets the number of workers new pools get when their options name none; `undefined` goes
 * back to the machine's cores minus one (at least one).
 * @category Workers
 */
export function setDefaultWorkerCount(count: number | undefined): void {
  if (count !== undefined && (!Number.isInteger(count) || count < 1))
    throw new RangeError(`The default worker count must be an integer >= 1, got ${count}`);
  storeDefaultWorkerCount(count);
}

/**
 * The number of workers a new pool gets by default: the value of
 * {@link setDefaultWorkerCount}, else the logical cores minus one (the calling thread reads,
 * dispatches and copies), at least one. Cores come from `navigator.hardwareConcurrency`
 * (browsers, Node >= 21) or `os.availableParallelism()` as the Node pool passes it in.
 * @category Workers
 */
export function defaultWorkerCount(cores?: number): number {
  const chosen = chosenWorkerCount();
  if (chosen !== undefined) return chosen;
  const nav = (globalThis as { navigator?: { hardwareConcurrency?: number } }).navigator;
  const n = cores ?? nav?.hardwareConcurrency ?? 2;
  return Math.max(1, Math.floor(n) - 1);
}
