import { formatValue } from "@z/errors";
import { checkArrayLimits } from "./array-limits.js";
import { collectExtraFields, withWhere } from "./array-metadata-internal.js";
import { type ChunkGrid, resolveChunkGrid } from "./chunk-grid.js";
import { type ChunkKeyEncoding, resolveChunkKeyEncoding } from "./chunk-key.js";
import { resolveDataTypeV3 } from "./dtype/registry.js";
import type { DataType, Endian } from "./dtype/types.js";
import { MetadataError } from "./errors.js";
import { type NamedConfig, parseNamedConfig } from "./extension.js";
import type { JsonObject, JsonValue } from "./json.js";
import {
  requireField,
  requireObject,
  validateAttributes,
  validateDimensionNames,
  validateShape,
} from "./validate-internal.js";

/** Details only v2 arrays have, kept so v2 metadata can be written back faithfully. */
export interface V2ArrayDetails {
  /** Memory layout of chunks: C (row-major) or F (column-major). */
  order: "C" | "F";
  /** Byte order of stored elements. */
  endian: Endian;
  /** The numcodecs filter configurations (each with its `id`), or null. */
  filters: JsonObject[] | null;
  /** The numcodecs compressor configuration (with its `id`), or null. */
  compressor: JsonObject | null;
  /** The `dtype` field as written. */
  dtype: JsonValue;
  /** `dimension_separator` as written; undefined when the field was absent. */
  dimensionSeparator: "/" | "." | undefined;
}

/**
 * Array metadata of either format in one normalised form. v2 metadata is translated to the v3
 * model (its order, filters, byte order and compressor become a codec list), so everything
 * below the metadata layer sees one kind of array.
 */
export interface ArrayMetadata {
  /** 2 or 3. */
  zarrFormat: 2 | 3;
  /** The array's shape. */
  shape: number[];
  /** The element type. */
  dataType: DataType;
  /** How the array is cut into chunks. */
  chunkGrid: ChunkGrid;
  /** How chunk coordinates map to store keys. */
  chunkKeyEncoding: ChunkKeyEncoding;
  /** The fill value as a scalar of the data type. */
  fillValue: unknown;
  /** The fill value as the metadata wrote it (v2 `null` included), written back unchanged. */
  fillValueJson: JsonValue;
  /** The codec pipeline: array-to-array codecs, one array-to-bytes codec, bytes-to-bytes codecs. */
  codecs: NamedConfig[];
  /** Names of the dimensions (v3), or undefined. */
  dimensionNames: (string | null)[] | undefined;
  /** User attributes. */
  attributes: JsonObject;
  /**
   * v3 storage transformers, as listed. The array layer applies the registered ones
   * (`registerStorageTransformer` of @z/array) and refuses to open an array naming an unknown one
   * that readers must understand.
   */
  storageTransformers: NamedConfig[];
  /** Unknown top-level fields marked `must_understand: false`, kept to write back. */
  extraFields: JsonObject;
  /** v2-only details; present exactly when `zarrFormat` is 2. */
  v2?: V2ArrayDetails;
}

const V3_ARRAY_FIELDS = new Set([
  "zarr_format",
  "node_type",
  "shape",
  "data_type",
  "chunk_grid",
  "chunk_key_encoding",
  "fill_value",
  "codecs",
  "attributes",
  "dimension_names",
  "storage_transformers",
]);

function parseStorageTransformers(json: JsonValue | undefined, where: string): NamedConfig[] {
  if (json === undefined) return [];
  if (!Array.isArray(json))
    throw new MetadataError(`${where}: "storage_transformers" must be a list`);
  return json.map((item, i) => parseNamedConfig(item, `${where} storage_transformers[${i}]`));
}

/**
 * Parses and validates v3 array metadata (the content of an array's `zarr.json`).
 * @param where names the document in errors, e.g. its store key
 * @throws MetadataError (or a subclass) naming the document and the field
 */
export function parseArrayMetadataV3(json: JsonValue, where = "zarr.json"): ArrayMetadata {
  const doc = requireObject(json, where);
  if (requireField(doc, "zarr_format", where) !== 3) {
    throw new MetadataError(
      `${where}: "zarr_format" must be 3, got ${formatValue(doc.zarr_format)}`,
    );
  }
  if (requireField(doc, "node_type", where) !== "array") {
    throw new MetadataError(
      `${where}: "node_type" must be "array", got ${formatValue(doc.node_type)}`,
    );
  }
  const shape = validateShape(requireField(doc, "shape", where), where);
  const dataType = resolveDataTypeV3(requireField(doc, "data_type", where), where);
  const chunkGrid = resolveChunkGrid(
    parseNamedConfig(requireField(doc, "chunk_grid", where), `${where} chunk_grid`),
    shape.length,
    where,
  );
  chunkGrid.checkArrayShape(shape, where);
  const chunkKeyEncoding = resolveChunkKeyEncoding(
    parseNamedConfig(requireField(doc, "chunk_key_encoding", where), `${where} chunk_key_encoding`),
  );
  const fillValueJson = requireField(doc, "fill_value", where);
  let fillValue: unknown;
  try {
    fillValue = dataType.parseFill(fillValueJson, 3);
  } catch (error) {
    throw withWhere(error, where);
  }
  const codecsJson = requireField(doc, "codecs", where);
  if (!Array.isArray(codecsJson) || codecsJson.length === 0) {
    throw new MetadataError(`${where}: "codecs" must be a non-empty list`);
  }
  const codecs = codecsJson.map((c, i) => parseNamedConfig(c, `${where} codecs[${i}]`));
  checkArrayLimits({ dataType, chunkGrid, codecs }, where);
  return {
    zarrFormat: 3,
    shape,
    dataType,
    chunkGrid,
    chunkKeyEncoding,
    fillValue,
    fillValueJson,
    codecs,
    dimensionNames: validateDimensionNames(doc.dimension_names, shape.length, where),
    attributes: validateAttributes(doc.attributes, where),
    storageTransformers: parseStorageTransformers(doc.storage_transformers, where),
    extraFields: collectExtraFields(doc, V3_ARRAY_FIELDS, where),
  };
}
