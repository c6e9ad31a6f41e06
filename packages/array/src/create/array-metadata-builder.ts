import { locateError } from "@z/errors";
import {
  type ArrayMetadata,
  arrayMetadataToV2Json,
  arrayMetadataToV3Json,
  type ChunkKeyEncoding,
  checkAttributes,
  type DataType,
  DefaultChunkKeyEncoding,
  type Endian,
  FillValueError,
  type JsonObject,
  type JsonValue,
  MetadataError,
  type NamedConfig,
  namedConfigToJson,
  parseArrayMetadataV2,
  parseArrayMetadataV3,
  resolveChunkKeyEncoding,
  uniformChunkShape,
  V2ChunkKeyEncoding,
} from "@z/metadata";
import {
  checkArrayLimits,
  codecsToV2Layout,
  v2Codecs,
  validateDimensionNames,
  validateShape,
} from "@z/metadata/internal";
import { isZarrError } from "@z/store-core";
import {
  type ChunksOption,
  type ChunksShorthand,
  chunkGridOption,
  shardGridOption,
} from "./chunk-grid-option.js";
import { checkedCodec, checkedCodecList } from "./codec-option-checks.js";
import { type CodecSpec, DEFAULT_COMPRESSOR, defaultSerializer } from "./codec-specs.js";
import { resolveDtype } from "./dtype-option.js";
import { checkChoice, checkOptionsObject, isPlainObject, shown } from "./option-checks.js";

/** How to create an array. */
export interface ArrayOptions {
  /** The array's shape. */
  shape: readonly number[];
  /**
   * The element type: a v3 name (`"int16"`, `"float32"`), a NumPy type string (`"<i2"`,
   * `">f8"`: its byte order is used) or a DataType object.
   */
  dtype: string | DataType;
  /**
   * The chunk shape; by default chosen so a chunk holds about 1 MiB. With `shards`, the inner
   * chunk shape (the unit of reading), as in zarr-python. A list of edge lengths on an axis
   * (`[[10, 20, 5], 8]`; `[V, N]` in it is N chunks of length V) makes a `rectilinear` grid (v3),
   * whose chunks are each stored at their own shape. As in zarr-python, one number is the
   * length along every axis (`chunks: 5`), `-1` a whole axis (`[-1, 10]`), `"auto"` the guess.
   */
  chunks?: ChunksOption | ChunksShorthand;
  /**
   * The chunk grid as metadata JSON (`{name, configuration}`), for grids of any registered
   * kind, e.g. `{name: "rectilinear", configuration: {kind: "inline", chunk_shapes: [[10, 20, 5], 8]}}`.
   * Exclusive with `chunks`.
   */
  chunkGrid?: JsonObject;
  /**
   * The shard shape (v3): chunks are stored many to a shard object with an index, through the
   * `sharding_indexed` codec; the filters, serializer and compressors apply to each inner chunk.
   * Each extent must be a multiple of the chunk's. A list of shard edge lengths on an axis
   * (`[[20, 40], 8]`) makes shards of different shapes (a `rectilinear` shard grid).
   */
  shards?: ChunksOption;
  /** Where shards keep their index (default "end"). */
  shardIndexLocation?: "start" | "end";
  /** The fill value (default 0, or false for bool). `null` is allowed for v2 only. */
  fillValue?: unknown;
  /** 2 or 3 (default 3). */
  zarrFormat?: 2 | 3;
  /** The whole codec list (v3 form); overrides filters, serializer and compressors. */
  codecs?: readonly CodecSpec[];
  /** Array-to-array codecs, e.g. `[{id: "delta", dtype: "<i4"}]`. */
  filters?: readonly CodecSpec[];
  /** The array-to-bytes codec (default `bytes`, little-endian). */
  serializer?: CodecSpec;
  /** Bytes-to-bytes codecs (default zstd); `null` or `[]` for none. v2 takes at most one. */
  compressors?: readonly CodecSpec[] | CodecSpec | null;
  /** Alias of `compressors` with a single codec, as v2 calls it. */
  compressor?: CodecSpec | null;
  /** Memory order of chunks: "C" (default) or "F" (a transpose codec in v3). */
  order?: "C" | "F";
  /** v3 dimension names. */
  dimensionNames?: readonly (string | null)[];
  /** User attributes. */
  attributes?: JsonObject;
  /**
   * v3 chunk key encoding (default `{name: "default", separator: "/"}`): `default` or `v2` with
   * a separator, or any encoding registered with `registerChunkKeyEncoding`, by name and
   * configuration as its metadata says (`{name: "my_keys", configuration: {...}}`).
   */
  chunkKeyEncoding?:
    | { name: "default" | "v2"; separator?: "/" | "." }
    | { name: string; configuration?: JsonObject };
  /** v2 chunk key separator (default "."). */
  dimensionSeparator?: "/" | ".";
}

function compressorList(options: ArrayOptions): NamedConfig[] {
  if (options.compressor !== undefined && options.compressors !== undefined) {
    throw new MetadataError('Pass either "compressor" or "compressors", not both');
  }
  const option = options.compressors !== undefined ? "compressors" : "compressor";
  const given = options.compressors !== undefined ? options.compressors : options.compressor;
  if (given === undefined) return [DEFAULT_COMPRESSOR];
  if (given === null) return [];
  return Array.isArray(given) ? checkedCodecList(given, option) : [checkedCodec(given, option)];
}

function codecList(
  options: ArrayOptions,
  dataType: DataType,
  endian: Endian,
  ndim: number,
): NamedConfig[] {
  if (options.codecs !== undefined) {
    const codecs = checkedCodecList(options.codecs, "codecs");
    if (codecs.length === 0)
      throw new MetadataError("The codecs option must list at least one codec (the serializer)");
    return codecs;
  }
  const codecs: NamedConfig[] = [];
  if (options.order === "F" && ndim > 1) {
    const order = Array.from({ length: ndim }, (_, i) => ndim - 1 - i);
    codecs.push({ name: "transpose", configuration: { order }, mustUnderstand: true });
  }
  codecs.push(...checkedCodecList(options.filters ?? [], "filters"));
  codecs.push(
    options.serializer !== undefined
      ? checkedCodec(options.serializer, "serializer")
      : defaultSerializer(dataType, endian),
  );
  codecs.push(...compressorList(options));
  return codecs;
}

function fillValueOf(
  options: ArrayOptions,
  dataType: DataType,
  format: 2 | 3,
): { value: unknown; json: JsonValue } {
  if (options.fillValue === null) {
    if (format === 2) return { value: dataType.defaultFill, json: null };
    // v3 fill values are mandatory; null is one only for types with nulls (nullable Arrow fields).
    try {
      return { value: dataType.parseFill(null, 3), json: null };
    } catch {
      throw new MetadataError(
        `Zarr v3 requires a fill value; null is not one for ${dataType.name}`,
      );
    }
  }
  if (options.fillValue === undefined) {
    const json = dataType.fillToJson(dataType.defaultFill, format);
    return { value: dataType.parseFill(json, format), json };
  }
  try {
    const value = dataType.coerce(options.fillValue);
    const json = dataType.fillToJson(value, format);
    return { value: dataType.parseFill(json, format), json };
  } catch (error) {
    // A data type's own typed error (an Arrow field's, say) keeps its class; plain errors
    // (a TypeError from a conversion) become a FillValueError naming the option.
    if (isZarrError(error))
      throw locateError(error, `The fillValue option ${shown(options.fillValue)}`);
    throw new FillValueError(
      `The fillValue option ${shown(options.fillValue)} does not fit ${dataType.name}: ${(error as Error)?.message ?? shown(error)}`,
      { cause: error },
    );
  }
}

function keyEncoding(options: ArrayOptions): ChunkKeyEncoding {
  const spec = options.chunkKeyEncoding ?? { name: "default" };
  if (!isPlainObject(spec) || typeof spec.name !== "string") {
    throw new MetadataError(
      `The chunkKeyEncoding option must be {name: "default" | "v2", separator?: "/" | "."} or {name, configuration} of a registered encoding, got ${shown(spec)}`,
    );
  }
  if ("configuration" in spec) {
    if ("separator" in spec)
      throw new MetadataError(
        "The chunkKeyEncoding option takes a separator or a configuration, not both",
      );
    if (spec.configuration !== undefined && !isPlainObject(spec.configuration))
      throw new MetadataError(
        `chunkKeyEncoding.configuration must be an object, got ${shown(spec.configuration)}`,
      );
    return registeredKeyEncoding(spec.name, (spec.configuration ?? {}) as JsonObject);
  }
  const { name, separator } = spec as { name: string; separator?: unknown };
  if (name !== "default" && name !== "v2") return registeredKeyEncoding(name, {});
  checkChoice(separator, ["/", "."], "chunkKeyEncoding.separator");
  return name === "v2"
    ? new V2ChunkKeyEncoding((separator as "/" | ".") ?? ".")
    : new DefaultChunkKeyEncoding((separator as "/" | ".") ?? "/");
}

/** Any registered encoding, built as a reader builds it from the metadata written. */
function registeredKeyEncoding(name: string, configuration: JsonObject): ChunkKeyEncoding {
  try {
    return resolveChunkKeyEncoding({ name, configuration, mustUnderstand: true });
  } catch (error) {
    throw locateError(error, `The chunkKeyEncoding.name option ${shown(name)}`);
  }
}

function shardingEntry(
  chunks: readonly number[],
  inner: readonly NamedConfig[],
  location: "start" | "end",
): NamedConfig {
  return {
    name: "sharding_indexed",
    configuration: {
      chunk_shape: [...chunks],
      codecs: inner.map(namedConfigToJson),
      index_codecs: [{ name: "bytes", configuration: { endian: "little" } }, { name: "crc32c" }],
      index_location: location,
    },
    mustUnderstand: true,
  };
}

/**
 * Builds the metadata of a new array from creation options, validating them. The result is
 * what a reader parses from the documents written for it, so the array object a creator gets
 * and the one a reader opens agree (data type, fill value) and nothing is written that would
 * not read back.
 * @throws MetadataError for options that cannot make valid metadata
 */
export function buildArrayMetadata(options: ArrayOptions): ArrayMetadata {
  const built = metadataFromOptions(options);
  if (built.zarrFormat === 2) {
    const { attributes, ...rest } = built;
    return parseArrayMetadataV2(arrayMetadataToV2Json({ ...rest, attributes: {} }), attributes);
  }
  return parseArrayMetadataV3(arrayMetadataToV3Json(built));
}

function metadataFromOptions(options: ArrayOptions): ArrayMetadata {
  checkOptionsObject(options, "createArray");
  const format = options.zarrFormat ?? 3;
  if (format !== 2 && format !== 3)
    throw new MetadataError(`zarrFormat must be 2 or 3, got ${shown(format)}`);
  const shape = [...validateShape(options.shape, "shape option")];
  if (options.dtype === undefined)
    throw new MetadataError('createArray needs a "dtype" option, such as "float64" or "<i4"');
  const { dataType, endian } = resolveDtype(options.dtype);
  const grid = chunkGridOption(options, shape, dataType.itemSize, format);
  checkChoice(options.order, ["C", "F"], "order");
  checkChoice(options.shardIndexLocation, ["start", "end"], "shardIndexLocation");
  checkChoice(options.dimensionSeparator, ["/", "."], "dimensionSeparator");
  const attributes = checkAttributes(options.attributes ?? {}, "attributes");
  const fill = fillValueOf(options, dataType, format);
  let codecs = codecList(options, dataType, endian, shape.length);
  let chunkGrid = grid;
  if (options.shards) {
    if (format !== 3) throw new MetadataError("Sharding needs Zarr v3; zarrFormat 2 has no shards");
    // Inner chunks are one regular grid; the shards may differ in shape.
    const chunks = uniformChunkShape(grid, "The chunks option with shards");
    chunkGrid = shardGridOption(options.shards, shape, chunks);
    codecs = [shardingEntry(chunks, codecs, options.shardIndexLocation ?? "end")];
  }
  const common = {
    shape,
    dataType,
    chunkGrid,
    fillValue: fill.value,
    fillValueJson: fill.json,
    attributes,
    storageTransformers: [],
    extraFields: {},
  };
  if (format === 3) {
    if (options.dimensionSeparator)
      throw new MetadataError("dimensionSeparator is a v2 option; use chunkKeyEncoding in v3");
    const names = validateDimensionNames(
      options.dimensionNames,
      shape.length,
      "dimensionNames option",
    );
    return withinLimits({
      ...common,
      zarrFormat: 3,
      chunkKeyEncoding: keyEncoding(options),
      codecs,
      dimensionNames: names ? [...names] : undefined,
    });
  }
  if (options.dimensionNames)
    throw new MetadataError("Zarr v2 has no dimension names; use attributes");
  if (options.chunkKeyEncoding)
    throw new MetadataError("chunkKeyEncoding is a v3 option; use dimensionSeparator in v2");
  const layout = codecsToV2Layout(codecs, shape.length);
  const v2 = {
    ...layout,
    dtype: dataType.toV2(layout.endian),
    dimensionSeparator: options.dimensionSeparator ?? ".",
  };
  return withinLimits({
    ...common,
    zarrFormat: 2,
    chunkKeyEncoding: new V2ChunkKeyEncoding(v2.dimensionSeparator),
    codecs: v2Codecs(v2, dataType, shape.length),
    dimensionNames: undefined,
    v2,
  });
}

/** The element and chunk sizes checked as when the metadata is read back (see `MetadataLimits`). */
function withinLimits(meta: ArrayMetadata): ArrayMetadata {
  checkArrayLimits(meta, "createArray");
  return meta;
}
