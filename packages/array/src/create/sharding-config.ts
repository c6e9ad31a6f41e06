import type { ArrayMetadata, JsonObject } from "@z/metadata";

/** The parts of a `sharding_indexed` configuration the array layer needs. */
export interface ShardingConfig {
  /** The inner chunk shape. */
  chunkShape: number[];
  /** The full configuration as written. */
  configuration: JsonObject;
}

/** The sharding configuration of an array whose serializer is `sharding_indexed`, or undefined. */
export function shardingOf(metadata: ArrayMetadata): ShardingConfig | undefined {
  const codec = metadata.codecs.find((c) => c.name === "sharding_indexed");
  if (!codec) return undefined;
  const chunkShape = codec.configuration.chunk_shape;
  if (!Array.isArray(chunkShape)) return undefined;
  return { chunkShape: chunkShape as number[], configuration: codec.configuration };
}
