// Encodes in the worker pool, for writes (the array's write path and the sharding codec, both
// loaded on first use): apart from pool-decoder.ts, which every read loads.
import type { Chunk } from "@z/ndarray";
import type { CodecPipeline } from "../pipeline.js";
import { type DecodeWhere, poolDecoderOf } from "./pool-decoder.js";

/**
 * Encodes a whole chunk with `pipeline`, in the pool `options` name or the default one (its
 * buffer moves there: the chunk must be the caller's own), else on this thread. On a missing
 * registration in the workers, or a failure of the shared pool, it encodes on this thread, on
 * the chunk `rebuild` makes again when its buffer had moved.
 */
export async function encodeInPool(
  pipeline: CodecPipeline,
  chunk: Chunk,
  rebuild: () => Chunk,
  options: DecodeWhere & { signal?: AbortSignal },
): Promise<Uint8Array> {
  const decoder = poolDecoderOf(pipeline);
  const pool = decoder.poolFor(options);
  if (!pool?.encode) return pipeline.encode(chunk);
  const { codecs, spec, zarrFormat } = decoder;
  try {
    return await pool.encode(chunk, codecs, spec, {
      zarrFormat,
      signal: options.signal,
      transfer: true,
    });
  } catch (error) {
    if (!decoder.fallsBack(error, pool)) throw error;
    return pipeline.encode(isDetached(chunk) ? rebuild() : chunk);
  }
}

/** Whether a chunk's elements moved to a worker (their buffer is detached here). */
function isDetached(chunk: Chunk): boolean {
  const data = chunk.data;
  return ArrayBuffer.isView(data) && data.buffer.byteLength === 0 && data.byteLength === 0;
}
