import { formatValue } from "@z/errors";
import { type JsonObject, MetadataError, type NamedConfig, parseNamedConfig } from "@z/metadata";
import { CodecConfigError } from "../errors.js";

/** Where a shard's index sits. */
export type IndexLocation = "start" | "end";

/** A parsed `sharding_indexed` configuration. */
export interface ShardingConfiguration {
  /** The inner chunk shape. */
  chunkShape: number[];
  /** The codecs of each inner chunk. */
  codecs: NamedConfig[];
  /** The codecs of the index (they must give it a fixed size). */
  indexCodecs: NamedConfig[];
  /** Where the index is. */
  indexLocation: IndexLocation;
}

/** The index codecs zarr-python writes by default: little-endian bytes with a crc32c checksum. */
export const DEFAULT_INDEX_CODECS: NamedConfig[] = [
  { name: "bytes", configuration: { endian: "little" }, mustUnderstand: true },
  { name: "crc32c", configuration: {}, mustUnderstand: true },
];

function codecList(json: unknown, what: string): NamedConfig[] {
  if (!Array.isArray(json) || json.length === 0) {
    throw new CodecConfigError(`sharding_indexed: "${what}" must be a non-empty list of codecs`);
  }
  try {
    return json.map((entry, i) => parseNamedConfig(entry, `sharding_indexed ${what}[${i}]`));
  } catch (error) {
    if (error instanceof MetadataError)
      throw new CodecConfigError(error.message, { codec: "sharding_indexed", cause: error });
    throw error;
  }
}

/**
 * Parses and checks a `sharding_indexed` configuration against the shard shape: one inner
 * extent per dimension, each a positive divisor of the shard's.
 * @throws CodecConfigError
 */
export function parseShardingConfiguration(
  configuration: JsonObject,
  shardShape: readonly number[],
): ShardingConfiguration {
  const chunkShape = configuration.chunk_shape;
  if (
    !Array.isArray(chunkShape) ||
    chunkShape.length !== shardShape.length ||
    chunkShape.some((n) => typeof n !== "number" || !Number.isSafeInteger(n) || n < 1)
  ) {
    throw new CodecConfigError(
      `sharding_indexed: "chunk_shape" must list ${shardShape.length} positive integers, got ${formatValue(chunkShape)}`,
    );
  }
  const inner = chunkShape as number[];
  inner.forEach((n, axis) => {
    if (shardShape[axis] % n !== 0) {
      throw new CodecConfigError(
        `sharding_indexed: the inner chunk shape [${inner}] must divide the shard shape [${shardShape}] (axis ${axis})`,
      );
    }
  });
  const location = configuration.index_location ?? "end";
  if (location !== "start" && location !== "end") {
    throw new CodecConfigError(
      `sharding_indexed: "index_location" must be "start" or "end", got ${formatValue(location)}`,
    );
  }
  return {
    chunkShape: inner,
    codecs: codecList(configuration.codecs, "codecs"),
    indexCodecs:
      configuration.index_codecs === undefined
        ? DEFAULT_INDEX_CODECS
        : codecList(configuration.index_codecs, "index_codecs"),
    indexLocation: location,
  };
}
