import type { GroupMetadata } from "./group-metadata.js";
import type { JsonObject } from "./json.js";

/** The v3 `zarr.json` document of group metadata. */
export function groupMetadataToV3Json(meta: GroupMetadata): JsonObject {
  const doc: JsonObject = { zarr_format: 3, node_type: "group", attributes: meta.attributes };
  if (meta.consolidatedMetadata !== undefined)
    doc.consolidated_metadata = meta.consolidatedMetadata;
  return { ...doc, ...meta.extraFields };
}
