import type { ArrayMetadata } from "./array-metadata.js";
import { uniformChunkShape } from "./chunk-grid-shape.js";
import { MetadataError } from "./errors.js";
import type { JsonObject } from "./json.js";

/** The v2 `.zarray` document of array metadata (attributes go to `.zattrs` separately). */
export function arrayMetadataToV2Json(meta: ArrayMetadata): JsonObject {
  const v2 = meta.v2;
  if (!v2)
    throw new MetadataError("These array metadata are v3; convert them with convertToV2() first");
  const doc: JsonObject = {
    chunks: [...uniformChunkShape(meta.chunkGrid, "Zarr v2 metadata")],
    compressor: v2.compressor,
    dtype: v2.dtype,
    fill_value: meta.fillValueJson,
    filters: v2.filters,
    order: v2.order,
    shape: [...meta.shape],
    zarr_format: 2,
  };
  if (v2.dimensionSeparator !== undefined) doc.dimension_separator = v2.dimensionSeparator;
  return doc;
}
