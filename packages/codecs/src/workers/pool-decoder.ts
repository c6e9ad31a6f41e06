import type { NamedConfig } from "@z/metadata";
import { type Chunk, isTypedArray, product } from "@z/ndarray";
import type { CodecPipeline } from "../pipeline.js";
import type { ChunkSpec } from "../types.js";
import type { ChunkDecodePool, PlaceTarget } from "./decode-pool.js";
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
    private readonly codecs: readonly NamedConfig[],
    private readonly spec: ChunkSpec,
    private readonly zarrFormat: 2 | 3,
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
    const run = (pool: ChunkDecodePool) =>
      pool.decode(bytes, this.codecs, this.spec, { zarrFormat, ...options, inline });
    return (await this.withFallback(pool, run, bytes, options, inline, again)) as Chunk;
  }

  /**
   * Decodes in the pool with the worker copying the chunk's regions into a shared result
   * (see {@link ChunkDecodePool.decodeInto}): undefined once they are in place, else the
   * decoded chunk for the caller to copy (a pool without `decodeInto`, a chunk decoded inline,
   * a fallback as in {@link decode}).
   */
  async decodeInto(
    pool: ChunkDecodePool,
    bytes: Uint8Array,
    target: PlaceTarget,
    options: { signal?: AbortSignal; transfer?: boolean },
    inline: (bytes: Uint8Array) => Promise<Chunk>,
    again: () => Promise<Uint8Array | undefined> = async () => bytes,
  ): Promise<Chunk | undefined> {
    const { zarrFormat } = this;
    const run = (pool: ChunkDecodePool) => {
      const where = { zarrFormat, ...options, inline };
      if (!pool.decodeInto) return pool.decode(bytes, this.codecs, this.spec, where);
      return pool.decodeInto(bytes, this.codecs, this.spec, target, where);
    };
    return this.withFallback(pool, run, bytes, options, inline, again);
  }

  /**
   * Encodes a chunk in the pool, its buffer moved there when `transfer` says nothing else holds
   * it; inline with `inline` when the pool cannot (no `encode`, a missing registration, the
   * shared pool failing), on the chunk `rebuild` makes again if its buffer had moved.
   */
  async encode(
    pool: ChunkDecodePool,
    chunk: Chunk,
    options: { signal?: AbortSignal; transfer?: boolean },
    inline: (chunk: Chunk) => Promise<Uint8Array>,
    rebuild: () => Chunk,
  ): Promise<Uint8Array> {
    if (!pool.encode) return inline(chunk);
    const { zarrFormat } = this;
    const shared = isSharedDecodePool(pool);
    try {
      return await pool.encode(chunk, this.codecs, this.spec, { zarrFormat, ...options });
    } catch (error) {
      if (shared && isWorkerFailure(error)) retireSharedDecodePool();
      else if (isMissingRegistration(error)) this.workersLackRegistration = true;
      else throw error;
      return inline(isDetached(chunk) ? rebuild() : chunk);
    }
  }

  private async withFallback(
    pool: ChunkDecodePool,
    run: (pool: ChunkDecodePool) => Promise<Chunk | undefined>,
    bytes: Uint8Array,
    options: { transfer?: boolean },
    inline: (bytes: Uint8Array) => Promise<Chunk>,
    again: () => Promise<Uint8Array | undefined>,
  ): Promise<Chunk | undefined> {
    const shared = isSharedDecodePool(pool);
    try {
      return await run(pool);
    } catch (error) {
      // The shared pool failing (or closed by another read's failure) is no reason to fail a read.
      if (shared && isWorkerFailure(error)) retireSharedDecodePool();
      else if (isMissingRegistration(error)) this.workersLackRegistration = true;
      else throw error;
      const stored = bytes.byteLength === 0 && options.transfer ? await again() : bytes;
      if (stored === undefined) throw error;
      return inline(stored);
    }
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

/**
 * Decodes a whole chunk's bytes (never handed over: the pool copies them) with `pipeline` in the
 * pool `options` name or the default one, having the worker copy `target.regions` of it into
 * the shared `target.out`: undefined once they are there, else the chunk for the caller to copy
 * (no pool, or the pool decoded it on this thread).
 */
export async function decodeIntoInPool(
  pipeline: CodecPipeline,
  bytes: Uint8Array,
  target: PlaceTarget,
  options: DecodeWhere & { signal?: AbortSignal },
): Promise<Chunk | undefined> {
  const decoder = poolDecoderOf(pipeline);
  const pool = decoder.poolFor(options);
  if (!pool) return pipeline.decode(bytes);
  const where = { signal: options.signal };
  return decoder.decodeInto(pool, bytes, target, where, (b) => pipeline.decode(b));
}

/**
 * Encodes a whole chunk with `pipeline`, in the pool `options` name or the default one (its
 * buffer moves there: the chunk must be the caller's own), else on this thread. `rebuild` makes
 * the chunk again for the fallbacks after its buffer moved.
 */
export function encodeInPool(
  pipeline: CodecPipeline,
  chunk: Chunk,
  rebuild: () => Chunk,
  options: DecodeWhere & { signal?: AbortSignal },
): Promise<Uint8Array> {
  const decoder = poolDecoderOf(pipeline);
  const pool = decoder.poolFor(options);
  if (!pool) return pipeline.encode(chunk);
  const where = { signal: options.signal, transfer: true };
  return decoder.encode(pool, chunk, where, (c) => pipeline.encode(c), rebuild);
}

/** Whether a chunk's elements moved to a worker (their buffer is detached here). */
function isDetached(chunk: Chunk): boolean {
  const data = chunk.data;
  return ArrayBuffer.isView(data) && data.buffer.byteLength === 0 && data.byteLength === 0;
}

/** Whether a pool's error says its worker could not start or died, or the pool was closed. */
function isWorkerFailure(error: unknown): boolean {
  const name = error instanceof Error ? error.name : "";
  return name === "WorkerFailedError" || name === "WorkerPoolClosedError";
}
