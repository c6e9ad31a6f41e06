import type { NamedConfig } from "@z/metadata";
import { type Chunk, isTypedArray, product } from "@z/ndarray";
import type { CodecPipeline } from "../pipeline.js";
import type { ChunkSpec } from "../types.js";
import type { ChunkDecodePool } from "./decode-pool.js";
import { isMissingRegistration } from "./decode-pool-default.js";
import { implicitDecodePool, isSharedDecodePool, retireSharedDecodePool } from "./implicit-pool.js";

/** Where a read decodes: a pool, `false` for the calling thread, or unset for the default. */
export interface DecodeWhere {
  /** The pool to decode in (`false`: inline); default the pool `setDefaultDecodePool` set, if any. */
  workers?: ChunkDecodePool | false;
}

/**
 * Sends one kind of chunk (an array's chunks, or a shard's inner chunks) to the worker pool a
 * read names, or the default pool (see `implicitDecodePool`). A worker that lacks a codec or
 * data type registered only on this thread sends these chunks back to inline decoding from then
 * on; so does a failure of the shared pool nobody asked for (its workers could not start).
 */
export class PoolDecoder {
  private workersLackRegistration = false;

  constructor(
    /** The codec chain, as array metadata lists it. */
    readonly codecs: readonly NamedConfig[],
    /** The spec of the chunks. */
    readonly spec: ChunkSpec,
    /** The Zarr format of the array. */
    readonly zarrFormat: 2 | 3,
  ) {}

  /** The pool a read should decode in, or undefined for inline. */
  poolFor(options: DecodeWhere): ChunkDecodePool | undefined {
    if (this.workersLackRegistration || options.workers === false) return undefined;
    return options.workers ?? implicitDecodePool(this.codecs);
  }

  /**
   * Decodes in the pool; on a missing registration, decodes inline instead (`again` gives the
   * bytes back when they were transferred away).
   */
  async decode(
    pool: ChunkDecodePool,
    bytes: Uint8Array,
    options: { signal?: AbortSignal; transfer?: boolean },
    inline: (bytes: Uint8Array) => Promise<Chunk>,
    again: () => Promise<Uint8Array | undefined> = async () => bytes,
  ): Promise<Chunk> {
    const { zarrFormat } = this;
    try {
      return await pool.decode(bytes, this.codecs, this.spec, { zarrFormat, ...options, inline });
    } catch (error) {
      return inline(await this.bytesAfter(error, pool, bytes, options, again));
    }
  }

  /**
   * Whether a pool's error sends these chunks to the calling thread: a missing registration in
   * the workers (remembered, so later chunks stay inline), or a failure of the shared pool
   * nobody asked for (retired). Any other error is the chunk's own.
   */
  fallsBack(error: unknown, pool: ChunkDecodePool): boolean {
    if (isSharedDecodePool(pool) && isWorkerFailure(error)) retireSharedDecodePool();
    else if (isMissingRegistration(error)) this.workersLackRegistration = true;
    else return false;
    return true;
  }

  /**
   * The stored bytes to decode inline after a pool's `error`, read again when they had moved to
   * a worker; rethrows an error that is no reason to fall back (see {@link fallsBack}).
   */
  async bytesAfter(
    error: unknown,
    pool: ChunkDecodePool,
    bytes: Uint8Array,
    options: { transfer?: boolean },
    again: () => Promise<Uint8Array | undefined>,
  ): Promise<Uint8Array> {
    if (!this.fallsBack(error, pool)) throw error;
    const stored = bytes.byteLength === 0 && options.transfer ? await again() : bytes;
    if (stored === undefined) throw error;
    return stored;
  }
}

/** One pool decoder per pipeline, so a missing registration is remembered per kind of chunk. */
const decoders = new WeakMap<CodecPipeline, PoolDecoder>();

/** The pool decoder of the chunks of `pipeline`. */
export function poolDecoderOf(pipeline: CodecPipeline): PoolDecoder {
  let decoder = decoders.get(pipeline);
  if (!decoder) {
    decoder = new PoolDecoder(pipeline.toJson(), pipeline.spec, pipeline.zarrFormat);
    decoders.set(pipeline, decoder);
  }
  return decoder;
}

/**
 * Decodes a whole chunk's bytes (never handed over: the pool copies them) with `pipeline`, in
 * the pool `options` name or the default one, else on this thread.
 */
export function decodeInPool(
  pipeline: CodecPipeline,
  bytes: Uint8Array,
  options: DecodeWhere & { signal?: AbortSignal },
): Promise<Chunk> {
  const decoder = poolDecoderOf(pipeline);
  const pool = decoder.poolFor(options);
  if (!pool) return pipeline.decode(bytes);
  return decoder.decode(pool, bytes, { signal: options.signal }, (b) => pipeline.decode(b));
}

/**
 * Whether `pool`'s workers can copy chunks of `pipeline` into a shared result: the pool offers
 * `decodeInto`, the elements are TypedArray slots, and chunks are large enough for the pool to
 * send them to a worker at all.
 */
export function placeableIn(
  pipeline: CodecPipeline,
  pool: ChunkDecodePool | undefined,
): pool is ChunkDecodePool {
  if (!pool?.decodeInto) return false;
  const { spec } = pipeline;
  if (!isTypedArray(spec.dataType.create(0))) return false;
  const below = (pool as { inlineBelow?: unknown }).inlineBelow;
  const size = product(spec.shape) * spec.dataType.itemSize;
  return typeof below !== "number" || size >= below;
}

/** Whether a pool's error says its worker could not start or died, or the pool was closed. */
function isWorkerFailure(error: unknown): boolean {
  const name = error instanceof Error ? error.name : "";
  return name === "WorkerFailedError" || name === "WorkerPoolClosedError";
}
