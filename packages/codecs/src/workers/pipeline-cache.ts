import type { NamedConfig } from "@z/metadata";
import { CodecPipeline } from "../pipeline.js";
import { type ChunkSpecJson, specFromJson } from "./spec-json.js";

/** How many pipelines one thread keeps built (one per distinct array layout in use). */
const MAX_CACHED = 64;

const cache = new Map<string, CodecPipeline>();

/**
 * The pipeline for a codec chain and a chunk spec, built once per thread and reused: a
 * worker sees the same few arrays' chunks over and over.
 */
export function cachedPipeline(
  codecs: readonly NamedConfig[],
  spec: ChunkSpecJson,
  zarrFormat: 2 | 3,
): CodecPipeline {
  const key = JSON.stringify([codecs, spec, zarrFormat]);
  let pipeline = cache.get(key);
  if (pipeline) {
    // Move it to the end: the map's order is the eviction order.
    cache.delete(key);
  } else {
    const where = "codecs sent to a codec worker";
    pipeline = CodecPipeline.create(codecs, specFromJson(spec), zarrFormat, {}, where);
    if (cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value as string);
  }
  cache.set(key, pipeline);
  return pipeline;
}
