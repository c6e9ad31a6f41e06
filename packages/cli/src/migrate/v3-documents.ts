import { isJsonObject, type JsonObject, type JsonValue } from "@z/zarr";
import { MigrationError } from "./migration-error.js";
import {
  compressorSerializer,
  migrateCompressor,
  migrateFilter,
  UnmigratableCodec,
} from "./v3-codecs.js";
import { migrateDataType, UnmigratableDataType } from "./v3-data-type.js";
import { migrateFillValue } from "./v3-fill-value.js";

/** The v2 documents of one node: `.zarray` or `.zgroup`, and `.zattrs` when there is one. */
export interface V2Documents {
  /** The node's path (no leading slash; "" for the root). */
  path: string;
  /** The `.zarray` document of an array; absent for a group. */
  zarray?: JsonValue;
  /** The `.zattrs` document, when there is one. */
  zattrs?: JsonValue;
}

function attributesOf(node: V2Documents): JsonObject {
  if (node.zattrs === undefined) return {};
  if (!isJsonObject(node.zattrs))
    throw new MigrationError(node.path, ".zattrs is not a JSON object");
  return node.zattrs;
}

function field(doc: JsonObject, key: string, path: string): JsonValue {
  if (!Object.hasOwn(doc, key)) throw new MigrationError(path, `.zarray has no "${key}"`);
  return doc[key];
}

/**
 * The `zarr.json` of a v2 array, as zarr-python 3.1's `zarr migrate v3` writes it, field for
 * field and in its order: the same shape, chunks and chunk keys (a `v2` chunk key encoding
 * with the array's separator, so no chunk moves), the data type by its v3 name, the codecs
 * `[transpose (order F)] + filters + bytes (the byte order) + [compressor]`, the `.zattrs` as
 * `attributes`, and an empty `storage_transformers`. A compressor that v3 has as an
 * array-to-bytes codec (zfpy, pcodec) takes the place of `bytes`, as zarrs migrates it.
 * @throws MigrationError naming the array and why it cannot be migrated
 */
export function migrateArrayDocument(node: V2Documents): JsonObject {
  const { path } = node;
  if (!isJsonObject(node.zarray)) throw new MigrationError(path, ".zarray is not a JSON object");
  const doc = node.zarray;
  try {
    const shape = field(doc, "shape", path);
    if (!Array.isArray(shape)) throw new MigrationError(path, '.zarray "shape" is not a list');
    const dtype = field(doc, "dtype", path);
    const type = migrateDataType(dtype);
    const codecs: JsonValue[] = [];
    if (doc.order === "F")
      codecs.push({
        name: "transpose",
        configuration: { order: shape.map((_, i) => shape.length - 1 - i) },
      });
    const filters = doc.filters ?? null;
    if (filters !== null) {
      if (!Array.isArray(filters))
        throw new MigrationError(path, '.zarray "filters" is not a list');
      for (const filter of filters) {
        if (!isJsonObject(filter))
          throw new MigrationError(path, `the filter ${JSON.stringify(filter)} is not an object`);
        codecs.push(migrateFilter(filter, dtype, type));
      }
    }
    const compressor = field(doc, "compressor", path);
    if (compressor !== null && !isJsonObject(compressor))
      throw new MigrationError(path, "the compressor is not an object");
    const serializer = compressor === null ? undefined : compressorSerializer(compressor);
    if (serializer) codecs.push(serializer);
    else {
      codecs.push(
        type.endian === null
          ? { name: "bytes" }
          : { name: "bytes", configuration: { endian: type.endian } },
      );
      if (compressor !== null) codecs.push(migrateCompressor(compressor, type));
    }
    return {
      shape,
      data_type: type.dataType,
      chunk_grid: { name: "regular", configuration: { chunk_shape: field(doc, "chunks", path) } },
      chunk_key_encoding: {
        name: "v2",
        configuration: { separator: doc.dimension_separator ?? "." },
      },
      fill_value: migrateFillValue(field(doc, "fill_value", path), type),
      codecs,
      attributes: attributesOf(node),
      zarr_format: 3,
      node_type: "array",
      storage_transformers: [],
    };
  } catch (error) {
    if (error instanceof UnmigratableDataType || error instanceof UnmigratableCodec)
      throw new MigrationError(path, error.message, { cause: error });
    throw error;
  }
}

/** The `zarr.json` of a v2 group, as zarr-python 3.1 writes it: its attributes, no consolidated metadata. */
export function migrateGroupDocument(node: V2Documents): JsonObject {
  return {
    attributes: attributesOf(node),
    zarr_format: 3,
    consolidated_metadata: null,
    node_type: "group",
  };
}
