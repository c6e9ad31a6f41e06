// The v3 array metadata writer, kept out of array-metadata-internal.ts (the parsers' helpers) so
// that reading metadata does not load it.
import type { ArrayMetadata } from "./array-metadata.js";
import { namedConfigToJson } from "./extension-json.js";
import type { JsonObject } from "./json.js";

/** The v3 `zarr.json` document of array metadata. */
export function arrayMetadataToV3Json(meta: ArrayMetadata): JsonObject {
  const doc: JsonObject = {
    zarr_format: 3,
    node_type: "array",
    shape: [...meta.shape],
    data_type: meta.dataType.toV3(),
    chunk_grid: meta.chunkGrid.toJson(),
    chunk_key_encoding: meta.chunkKeyEncoding.toJson(),
    fill_value: meta.fillValueJson,
    codecs: meta.codecs.map(namedConfigToJson),
    attributes: meta.attributes,
  };
  if (meta.dimensionNames) doc.dimension_names = [...meta.dimensionNames];
  if (meta.storageTransformers.length > 0)
    doc.storage_transformers = meta.storageTransformers.map(namedConfigToJson);
  return { ...doc, ...meta.extraFields };
}
