import type { ArrayMetadata, GroupMetadata, JsonObject, JsonValue } from "@z/metadata";
import {
  arrayMetadataToV2Json,
  arrayMetadataToV3Json,
  encodeJson,
  groupMetadataToV3Json,
  isJsonObject,
  METADATA_KEYS,
} from "@z/metadata";
import type { ConsolidatedMetadata } from "../consolidated/consolidated-model.js";

// Node metadata and the documents it is written as, without I/O: what the node writers and the
// consolidated metadata model share. Parsing the documents is in node-parse.ts (v3) and
// node-parse-v2.ts (v2), which the metadata reader loads on first use.

/**
 * The metadata of a node, tagged with its kind. A group may carry the consolidated metadata of
 * the nodes below it (read from its `zarr.json` or `.zmetadata`).
 */
export type NodeMetadata =
  | { kind: "array"; metadata: ArrayMetadata }
  | { kind: "group"; metadata: GroupMetadata; consolidated?: ConsolidatedMetadata };

/** A JSON object with its keys sorted, recursively (as Python's `json.dumps(sort_keys=True)`). */
export function sortKeysDeep(value: JsonValue): JsonValue {
  if (Array.isArray(value)) return value.map(sortKeysDeep);
  if (!isJsonObject(value)) return value;
  const keys = Object.keys(value).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return Object.fromEntries(keys.map((k) => [k, sortKeysDeep(value[k])]));
}

function sortKeys(doc: JsonObject): JsonObject {
  return Object.fromEntries(Object.entries(doc).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** The v2 `.zarray` document of array metadata, keys sorted as zarr-python writes them. */
export function zarrayDocument(meta: ArrayMetadata): JsonObject {
  return sortKeys(arrayMetadataToV2Json(meta));
}

/** The metadata documents (store key relative to the node, bytes) an array's metadata is written as. */
export function arrayMetadataDocuments(meta: ArrayMetadata): [string, Uint8Array][] {
  if (meta.zarrFormat === 3)
    return [[METADATA_KEYS.zarrJson, encodeJson(arrayMetadataToV3Json(meta), 2)]];
  const docs: [string, Uint8Array][] = [
    [METADATA_KEYS.zarray, encodeJson(zarrayDocument(meta), 4)],
  ];
  if (Object.keys(meta.attributes).length > 0)
    docs.push([METADATA_KEYS.zattrs, encodeJson(meta.attributes, 4)]);
  return docs;
}

/** The metadata documents a group's metadata is written as. */
export function groupMetadataDocuments(meta: GroupMetadata): [string, Uint8Array][] {
  if (meta.zarrFormat === 3)
    return [[METADATA_KEYS.zarrJson, encodeJson(groupMetadataToV3Json(meta), 2)]];
  const docs: [string, Uint8Array][] = [[METADATA_KEYS.zgroup, encodeJson({ zarr_format: 2 }, 4)]];
  if (Object.keys(meta.attributes).length > 0)
    docs.push([METADATA_KEYS.zattrs, encodeJson(meta.attributes, 4)]);
  return docs;
}

/** The metadata documents of a node of either kind. */
export function nodeMetadataDocuments(node: NodeMetadata): [string, Uint8Array][] {
  return node.kind === "array"
    ? arrayMetadataDocuments(node.metadata)
    : groupMetadataDocuments(node.metadata);
}
