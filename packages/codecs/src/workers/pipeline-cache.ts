import type { NamedConfig } from "@z/metadata";
import { stringifyJson } from "@z/metadata";
import { CodecPipeline } from "../pipeline.js";
import { type ChunkSpecMessage, specFromMessage } from "./spec-message.js";

/** How many pipelines one thread keeps built (one per distinct array layout in use). */
const MAX_CACHED = 64;

const cache = new Map<string, CodecPipeline>();

/**
 * The cache key of a pipeline: the codec chain and data type in our JSON writer's form (which
 * holds BigInt configuration values exactly, as metadata does) and the fill value's bytes,
 * which tell -0 from 0 and one NaN payload from another.
 */
function keyOf(codecs: readonly NamedConfig[], spec: ChunkSpecMessage, zarrFormat: 2 | 3): string {
  let fill = "";
  for (const byte of spec.fill) fill += byte.toString(16).padStart(2, "0");
  return `${stringifyJson([codecs, spec.dataType, spec.shape, zarrFormat], 0)}|${fill}`;
}

/**
 * The pipeline for a codec chain and a chunk spec, built once per thread and reused: a
 * worker sees the same few arrays' chunks over and over.
 */
export function cachedPipeline(
  codecs: readonly NamedConfig[],
  spec: ChunkSpecMessage,
  zarrFormat: 2 | 3,
): CodecPipeline {
  const key = keyOf(codecs, spec, zarrFormat);
  let pipeline = cache.get(key);
  if (pipeline) {
    // Move it to the end: the map's order is the eviction order.
    cache.delete(key);
  } else {
    const where = "codecs sent to a codec worker";
    pipeline = CodecPipeline.create(codecs, specFromMessage(spec), zarrFormat, {}, where);
    if (cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value as string);
  }
  cache.set(key, pipeline);
  return pipeline;
}
