import {
  type ArrayMetadata,
  type ChunkKeyEncoding,
  codecsToV2Layout,
  type DataType,
  DefaultChunkKeyEncoding,
  type Endian,
  type JsonObject,
  type JsonValue,
  MetadataError,
  type NamedConfig,
  namedConfigToJson,
  RegularChunkGrid,
  resolveDataTypeV2,
  resolveDataTypeV3,
  V2ChunkKeyEncoding,
  v2Codecs,
  validateChunkShape,
  validateShape,
} from "@z/metadata";
import { guessChunks } from "./chunking.js";
import {
  type CodecSpec,
  DEFAULT_COMPRESSOR,
  defaultSerializer,
  toNamedConfig,
} from "./codec-specs.js";

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
   * chunk shape (the unit of reading), as in zarr-python.
   */
  chunks?: readonly number[];
  /**
   * The shard shape (v3): chunks are stored many to a shard object with an index, through the
   * `sharding_indexed` codec; the filters, serializer and compressors apply to each inner chunk.
   * Each extent must be a multiple of the chunk's.
   */
  shards?: readonly number[];
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
  /** v3 chunk key encoding (default `{name: "default", separator: "/"}`). */
  chunkKeyEncoding?: { name: "default" | "v2"; separator?: "/" | "." };
  /** v2 chunk key separator (default "."). */
  dimensionSeparator?: "/" | ".";
}

/** A data type given by v3 name (`"int32"`), v2/NumPy typestr (`">i4"`) or object, with its byte order. */
export function resolveDtype(dtype: string | DataType): { dataType: DataType; endian: Endian } {
  if (typeof dtype !== "string") return { dataType: dtype, endian: "little" };
  try {
    return { dataType: resolveDataTypeV3(dtype), endian: "little" };
  } catch {
    return resolveDataTypeV2(dtype, "the dtype option");
  }
}

function compressorList(options: ArrayOptions): NamedConfig[] {
  if (options.compressor !== undefined && options.compressors !== undefined) {
    throw new MetadataError('Pass either "compressor" or "compressors", not both');
  }
  const given = options.compressors !== undefined ? options.compressors : options.compressor;
  if (given === undefined) return [DEFAULT_COMPRESSOR];
  if (given === null) return [];
  const list = Array.isArray(given) ? given : [given as CodecSpec];
  return list.map(toNamedConfig);
}

function codecList(
  options: ArrayOptions,
  dataType: DataType,
  endian: Endian,
  ndim: number,
): NamedConfig[] {
  if (options.codecs) return options.codecs.map(toNamedConfig);
  const codecs: NamedConfig[] = [];
  if (options.order === "F" && ndim > 1) {
    const order = Array.from({ length: ndim }, (_, i) => ndim - 1 - i);
    codecs.push({ name: "transpose", configuration: { order }, mustUnderstand: true });
  }
  codecs.push(...(options.filters ?? []).map(toNamedConfig));
  codecs.push(
    options.serializer ? toNamedConfig(options.serializer) : defaultSerializer(dataType, endian),
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
  const value =
    options.fillValue === undefined ? dataType.defaultFill : dataType.coerce(options.fillValue);
  const json = dataType.fillToJson(value, format);
  return { value: dataType.parseFill(json, format), json };
}

function keyEncoding(options: ArrayOptions): ChunkKeyEncoding {
  const spec = options.chunkKeyEncoding ?? { name: "default" };
  return spec.name === "v2"
    ? new V2ChunkKeyEncoding(spec.separator ?? ".")
    : new DefaultChunkKeyEncoding(spec.separator ?? "/");
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
 * Builds the metadata of a new array from creation options, validating them.
 * @throws MetadataError for options that cannot make valid metadata
 */
export function buildArrayMetadata(options: ArrayOptions): ArrayMetadata {
  const format = options.zarrFormat ?? 3;
  if (format !== 2 && format !== 3)
    throw new MetadataError(`zarrFormat must be 2 or 3, got ${format}`);
  const shape = [...validateShape(options.shape as number[], "shape option")];
  const { dataType, endian } = resolveDtype(options.dtype);
  const chunks = validateChunkShape(
    options.chunks ? [...options.chunks] : guessChunks(shape, dataType.itemSize),
    shape.length,
    "chunks option",
  );
  const fill = fillValueOf(options, dataType, format);
  let codecs = codecList(options, dataType, endian, shape.length);
  let gridShape = chunks;
  if (options.shards) {
    if (format !== 3) throw new MetadataError("Sharding needs Zarr v3; zarrFormat 2 has no shards");
    gridShape = validateChunkShape([...options.shards], shape.length, "shards option");
    gridShape.forEach((n, axis) => {
      if (n % chunks[axis] !== 0) {
        throw new MetadataError(
          `The shard shape [${gridShape}] must be a multiple of the chunk shape [${chunks}] (axis ${axis})`,
        );
      }
    });
    codecs = [shardingEntry(chunks, codecs, options.shardIndexLocation ?? "end")];
  }
  const common = {
    shape,
    dataType,
    chunkGrid: new RegularChunkGrid(gridShape),
    fillValue: fill.value,
    fillValueJson: fill.json,
    attributes: options.attributes ?? {},
    storageTransformers: [],
    extraFields: {},
  };
  if (format === 3) {
    if (options.dimensionSeparator)
      throw new MetadataError("dimensionSeparator is a v2 option; use chunkKeyEncoding in v3");
    const names = options.dimensionNames;
    if (names && names.length !== shape.length) {
      throw new MetadataError(
        `dimensionNames has ${names.length} entries; the array has ${shape.length} dimensions`,
      );
    }
    return {
      ...common,
      zarrFormat: 3,
      chunkKeyEncoding: keyEncoding(options),
      codecs,
      dimensionNames: names ? [...names] : undefined,
    };
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
  return {
    ...common,
    zarrFormat: 2,
    chunkKeyEncoding: new V2ChunkKeyEncoding(v2.dimensionSeparator),
    codecs: v2Codecs(v2, dataType, shape.length),
    dimensionNames: undefined,
    v2,
  };
}
