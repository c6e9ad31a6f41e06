import { formatValue } from "@z/errors";
import { checkArrayLimits } from "./array-limits.js";
import type { ArrayMetadata, V2ArrayDetails } from "./array-metadata.js";
import { withWhere } from "./array-metadata-internal.js";
import { RegularChunkGrid } from "./chunk-grid.js";
import { validateChunkShape } from "./chunk-grid-shape.js";
import { V2ChunkKeyEncoding } from "./chunk-key.js";
import { resolveDataTypeV2 } from "./dtype/registry.js";
import type { Endian } from "./dtype/types.js";
import { MetadataError } from "./errors.js";
import type { JsonObject, JsonValue } from "./json.js";
import { isJsonObject } from "./json-object.js";
import { v2Codecs } from "./v2-internal.js";
import {
  requireField,
  requireObject,
  validateAttributes,
  validateShape,
} from "./validate-internal.js";

function parseCodecConfig(json: JsonValue, where: string): JsonObject {
  if (!isJsonObject(json) || typeof json.id !== "string") {
    throw new MetadataError(
      `${where} must be an object with a string "id", got ${formatValue(json)}`,
    );
  }
  return json;
}

/**
 * Parses and validates v2 array metadata: the `.zarray` document and, if there is one, the
 * `.zattrs` document.
 * @throws MetadataError (or a subclass) naming the document and the field
 */
export function parseArrayMetadataV2(
  zarray: JsonValue,
  zattrs?: JsonValue,
  where = ".zarray",
): ArrayMetadata {
  const doc = requireObject(zarray, where);
  if (requireField(doc, "zarr_format", where) !== 2) {
    throw new MetadataError(
      `${where}: "zarr_format" must be 2, got ${formatValue(doc.zarr_format)}`,
    );
  }
  const shape = validateShape(requireField(doc, "shape", where), where);
  const chunks = validateChunkShape(requireField(doc, "chunks", where), shape.length, where);
  const dtype = requireField(doc, "dtype", where);
  const { dataType, endian } = resolveDataTypeV2(dtype, where);
  const order = doc.order ?? "C";
  if (order !== "C" && order !== "F")
    throw new MetadataError(`${where}: "order" must be "C" or "F", got ${formatValue(order)}`);
  const compressorJson = requireField(doc, "compressor", where);
  const compressor =
    compressorJson === null ? null : parseCodecConfig(compressorJson, `${where} compressor`);
  const filtersJson = doc.filters ?? null;
  if (filtersJson !== null && !Array.isArray(filtersJson))
    throw new MetadataError(`${where}: "filters" must be a list or null`);
  const filters =
    filtersJson === null
      ? null
      : filtersJson.map((f, i) => parseCodecConfig(f, `${where} filters[${i}]`));
  const separator = doc.dimension_separator;
  if (separator !== undefined && separator !== "/" && separator !== ".") {
    throw new MetadataError(
      `${where}: "dimension_separator" must be "." or "/", got ${formatValue(separator)}`,
    );
  }
  const fillValueJson = requireField(doc, "fill_value", where);
  let fillValue: unknown;
  try {
    fillValue = dataType.parseFill(fillValueJson, 2);
  } catch (error) {
    throw withWhere(error, where);
  }
  const v2: V2ArrayDetails = {
    order,
    endian,
    filters,
    compressor,
    dtype,
    dimensionSeparator: separator,
  };
  const chunkGrid = new RegularChunkGrid(chunks);
  const codecs = v2Codecs(v2, dataType, shape.length);
  checkArrayLimits({ dataType, chunkGrid, codecs }, where);
  return {
    zarrFormat: 2,
    shape,
    dataType,
    chunkGrid,
    chunkKeyEncoding: new V2ChunkKeyEncoding(separator ?? "."),
    fillValue,
    fillValueJson,
    codecs,
    dimensionNames: undefined,
    attributes: validateAttributes(zattrs ?? undefined, where.replace(/\.zarray$/, ".zattrs")),
    storageTransformers: [],
    extraFields: {},
    v2,
  };
}

/** What a v3 codec list becomes in v2 terms. */
export interface V2Layout {
  /** Memory order of chunks. */
  order: "C" | "F";
  /** Byte order. */
  endian: Endian;
  /** numcodecs filters, or null. */
  filters: JsonObject[] | null;
  /** numcodecs compressor, or null. */
  compressor: JsonObject | null;
}
