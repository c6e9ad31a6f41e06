import { CodecPipeline } from "@z/codecs";
import {
  type ArrayMetadata,
  type JsonObject,
  type JsonValue,
  type NamedConfig,
  parseNamedConfig,
} from "@z/metadata";
import { shardingOf } from "../create/sharding-config.js";

/** A v2 codec configuration as numcodecs writes it: its `id` and its parameters. */
export type NumcodecsConfig = JsonObject & { id: string };

/**
 * An array's codecs by role, as zarr-python's `filters`, `serializer` and `compressors` give
 * them: v3 entries `{name, configuration}` as the built codecs write them (defaults filled in),
 * v2 numcodecs configurations as the metadata holds them.
 */
export interface CodecRoles {
  /** Array-to-array codecs (v3) or numcodecs filters (v2), in encode order. */
  filters: NamedConfig[] | NumcodecsConfig[];
  /** The array-to-bytes codec (v3); undefined for v2, which has none. */
  serializer: NamedConfig | undefined;
  /** Bytes-to-bytes codecs (v3) or the numcodecs compressor (v2, zero or one), in encode order. */
  compressors: NamedConfig[] | NumcodecsConfig[];
}

/**
 * The codecs of an array by role. A sharded array's are those of its inner chunks, as
 * zarr-python reports them (the sharding codec itself is what `metadata.codecs` lists).
 */
export function codecRoles(metadata: ArrayMetadata, pipeline: CodecPipeline): CodecRoles {
  if (metadata.v2) {
    const { filters, compressor } = metadata.v2;
    return {
      filters: structuredClone(filters ?? []) as NumcodecsConfig[],
      serializer: undefined,
      compressors: compressor ? [structuredClone(compressor) as NumcodecsConfig] : [],
    };
  }
  const inner = shardInnerPipeline(metadata, pipeline) ?? pipeline;
  return {
    filters: inner.arrayToArray.map((stage) => stage.codec.toJson()),
    serializer: inner.arrayToBytes.codec.toJson(),
    compressors: inner.bytesToBytes.map((codec) => codec.toJson()),
  };
}

/**
 * The inner chunks' pipeline when the whole pipeline is one sharding codec (zarr-python's
 * `inner_codecs`), built from the sharding configuration in the metadata: what the sharding
 * codec holds stays its own.
 */
function shardInnerPipeline(
  metadata: ArrayMetadata,
  pipeline: CodecPipeline,
): CodecPipeline | undefined {
  if (pipeline.arrayToArray.length > 0 || pipeline.bytesToBytes.length > 0) return undefined;
  const sharding = shardingOf(metadata);
  const codecs = sharding?.configuration.codecs;
  if (!sharding || !Array.isArray(codecs)) return undefined;
  const where = "sharding_indexed codecs";
  const entries = codecs.map((entry: JsonValue) => parseNamedConfig(entry, where));
  const { dataType, fillValue } = metadata;
  const spec = { shape: [...sharding.chunkShape], dataType, fillValue };
  return CodecPipeline.create(entries, spec, 3, {}, where);
}
