import { type DataType, isJsonObject, type JsonObject, type NamedConfig } from "@z/metadata";
import { BoolArray, type Container, isTypedArray } from "@z/ndarray";
import { ZarrArray } from "../nodes/array.js";
import type { CreateNodeOptions } from "../write/create-nodes.js";
import type { ArrayOptions } from "./array-metadata-builder.js";
import { chunksOptionOf } from "./chunk-grid-option.js";
import type { CodecSpec } from "./codec-specs.js";
import { shardingOf } from "./sharding-config.js";

// The creation options of an array like another one (its layout, in its format or the other),
// shared by the `*Like` helpers, fromArray and node copies.

/**
 * Options of the `*Like` helpers: anything given overrides what is taken from the source.
 * From a {@link ZarrArray} they take its layout: shape, data type, chunks (and shards), fill
 * value and dimension names; its codecs and chunk key encoding too when the format stays and no
 * codec option is given (across formats a big-endian byte order is kept). Attributes are not
 * taken.
 */
export type LikeOptions = Partial<ArrayOptions> & CreateNodeOptions;

/** What an array can be created like: a Zarr array, or an n-d value (`{shape, data?}`). */
export type ArraySource =
  | ZarrArray
  | { shape: readonly number[]; data?: Container; dtype?: string | DataType };

const CONTAINER_TYPES: [abstract new (...args: never[]) => unknown, string][] = [
  [BoolArray, "bool"],
  [Int8Array, "int8"],
  [Uint8Array, "uint8"],
  [Uint8ClampedArray, "uint8"],
  [Int16Array, "int16"],
  [Uint16Array, "uint16"],
  [Int32Array, "int32"],
  [Uint32Array, "uint32"],
  [Float32Array, "float32"],
  [Float64Array, "float64"],
  [BigInt64Array, "int64"],
  [BigUint64Array, "uint64"],
];

/**
 * The data type name a container implies: its TypedArray class (BoolArray is bool), or for a
 * plain array, bool (all booleans), int64 (all bigints), string (all strings), else float64.
 */
export function dataTypeOfContainer(data: Container | unknown[]): string {
  if (isTypedArray(data)) {
    const found = CONTAINER_TYPES.find(([ctor]) => data instanceof ctor);
    if (found) return found[1];
  }
  const items = data as unknown[];
  if (items.length > 0 && items.every((v) => typeof v === "boolean")) return "bool";
  if (items.length > 0 && items.every((v) => typeof v === "bigint")) return "int64";
  if (items.length > 0 && items.every((v) => typeof v === "string")) return "string";
  return "float64";
}

function codecSpecs(codecs: readonly NamedConfig[]): CodecSpec[] {
  return codecs.map((c) => ({
    name: c.name,
    configuration: c.configuration,
    must_understand: c.mustUnderstand,
  }));
}

const CODEC_OPTIONS = [
  "codecs",
  "filters",
  "serializer",
  "compressors",
  "compressor",
  "order",
] as const;

/**
 * The creation options that reproduce an array's layout: shape, data type, chunks (and
 * shards), codecs, fill value, dimension names and chunk key encoding. Codecs and key
 * encodings are only taken when the format stays the same and `overrides` gives no codec
 * option of its own. Attributes are not taken.
 */
export function optionsLike(source: ArraySource, overrides: LikeOptions = {}): ArrayOptions {
  if (!(source instanceof ZarrArray)) {
    const dtype =
      overrides.dtype ??
      source.dtype ??
      (source.data ? dataTypeOfContainer(source.data) : "float64");
    return { ...overrides, shape: overrides.shape ?? source.shape, dtype };
  }
  const meta = source.metadata;
  const format = overrides.zarrFormat ?? meta.zarrFormat;
  const base: ArrayOptions = { shape: meta.shape, dtype: meta.dataType, zarrFormat: format };
  if (meta.fillValueJson !== null) base.fillValue = meta.fillValue;
  else if (format === 2) base.fillValue = null;
  if (format === 3 && meta.dimensionNames) base.dimensionNames = meta.dimensionNames;
  const ownCodecs = CODEC_OPTIONS.some((key) => overrides[key] !== undefined);
  const sharding = shardingOf(meta);
  if (format === meta.zarrFormat && !ownCodecs) {
    if (sharding && (overrides.chunks || overrides.shards)) {
      base.chunks = sharding.chunkShape;
      base.shards = chunksOptionOf(meta.chunkGrid);
      base.codecs = (sharding.configuration.codecs as JsonObject[]).map((c) => c as CodecSpec);
    } else if (meta.chunkGrid.name !== "regular" && !overrides.chunks) {
      base.chunkGrid = meta.chunkGrid.toJson();
      base.codecs = codecSpecs(meta.codecs);
    } else {
      base.chunks = meta.chunkGrid.chunkShape;
      base.codecs = codecSpecs(meta.codecs);
    }
    if (format === 3) {
      const { name, separator } = meta.chunkKeyEncoding;
      const { configuration } = meta.chunkKeyEncoding.toJson();
      base.chunkKeyEncoding =
        name === "default" || name === "v2"
          ? { name, separator }
          : { name, configuration: isJsonObject(configuration) ? configuration : {} };
    } else {
      base.dimensionSeparator = meta.v2?.dimensionSeparator ?? ".";
    }
  } else {
    const grid = meta.chunkGrid;
    if (sharding) base.chunks = sharding.chunkShape;
    else if (grid.chunkShape) base.chunks = grid.chunkShape;
    else if (format === 3 && !overrides.chunks) base.chunkGrid = grid.toJson();
    if (sharding && format === 3) base.shards = chunksOptionOf(grid);
    // The byte order survives a change of format (it is the dtype's in v2, the codec's in v3).
    const bytes = meta.codecs.find((c) => c.name === "bytes");
    if (!ownCodecs && bytes?.configuration.endian === "big")
      base.serializer = { name: "bytes", configuration: { endian: "big" } };
  }
  return { ...base, ...definedOnly(overrides) };
}

function definedOnly<T extends object>(options: T): Partial<T> {
  return Object.fromEntries(
    Object.entries(options).filter(([, v]) => v !== undefined),
  ) as Partial<T>;
}
