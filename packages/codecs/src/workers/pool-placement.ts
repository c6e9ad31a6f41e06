// Decodes whose worker copies the chunk's parts into a shared result itself. Apart from
// pool-decoder.ts, which every read loads, so that only reads that fill a shared result (and the
// sharding codec, itself loaded on first use) load this.
import type { Chunk } from "@z/ndarray";
import type { CodecPipeline } from "../pipeline.js";
import type { ChunkDecodePool, PlaceTarget } from "./decode-pool.js";
import { type DecodeWhere, type PoolDecoder, poolDecoderOf } from "./pool-decoder.js";

/**
 * Decodes in `pool` with the worker copying the chunk's regions into a shared result (see
 * `ChunkDecodePool.decodeInto`): undefined once they are in place, else the decoded chunk for
 * the caller to copy (a pool without `decodeInto`, a chunk the pool decoded inline, or a
 * fallback to inline decoding as `PoolDecoder.decode` makes).
 */
export async function decodeIntoWith(
  decoder: PoolDecoder,
  pool: ChunkDecodePool,
  bytes: Uint8Array,
  target: PlaceTarget,
  options: { signal?: AbortSignal; transfer?: boolean },
  inline: (bytes: Uint8Array) => Promise<Chunk>,
  again: () => Promise<Uint8Array | undefined> = async () => bytes,
): Promise<Chunk | undefined> {
  const { codecs, spec, zarrFormat } = decoder;
  const where = { zarrFormat, ...options, inline };
  try {
    if (!pool.decodeInto) return await pool.decode(bytes, codecs, spec, where);
    return await pool.decodeInto(bytes, codecs, spec, target, where);
  } catch (error) {
    return inline(await decoder.bytesAfter(error, pool, bytes, options, again));
  }
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
  return decodeIntoWith(decoder, pool, bytes, target, where, (b) => pipeline.decode(b));
}
