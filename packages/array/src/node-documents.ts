import {
  type ArrayMetadata,
  arrayMetadataToV2Json,
  arrayMetadataToV3Json,
  encodeJson,
  formatValue,
  type GroupMetadata,
  groupMetadataToV3Json,
  isJsonObject,
  type JsonObject,
  type JsonValue,
  METADATA_KEYS,
  MetadataError,
  parseArrayMetadataV2,
  parseArrayMetadataV3,
  parseGroupMetadataV2,
  parseGroupMetadataV3,
} from "@z/metadata";
import type { ConsolidatedMetadata } from "./consolidated-model.js";

// Node metadata and the documents it is stored as, both ways, without I/O: what the metadata
// reader, the consolidated metadata model and the node writers share.

/**
 * The metadata of a node, tagged with its kind. A group may carry the consolidated metadata of
 * the nodes below it (read from its `zarr.json` or `.zmetadata`).
 */
export type NodeMetadata =
  | { kind: "array"; metadata: ArrayMetadata }
  | { kind: "group"; metadata: GroupMetadata; consolidated?: ConsolidatedMetadata };

/**
 * Parses v2 node documents: `.zarray` (an array) or `.zgroup` (a group), with `.zattrs`.
 * @param whereOf names a document (`.zarray`, ...) in error messages
 */
export function parseV2Node(
  zarray: JsonValue | undefined,
  zgroup: JsonValue | undefined,
  zattrs: JsonValue | undefined,
  whereOf: (document: string) => string,
): NodeMetadata {
  if (zarray !== undefined) {
    return {
      kind: "array",
      metadata: parseArrayMetadataV2(zarray, zattrs, whereOf(METADATA_KEYS.zarray)),
    };
  }
  if (zgroup === undefined) throw new MetadataError(`${whereOf(METADATA_KEYS.zgroup)} is missing`);
  return {
    kind: "group",
    metadata: parseGroupMetadataV2(zgroup, zattrs, whereOf(METADATA_KEYS.zgroup)),
  };
}

/** Parses a v3 `zarr.json` of either node type. */
export function parseV3Node(doc: JsonValue, where: string): NodeMetadata {
  if (!isJsonObject(doc)) throw new MetadataError(`${where} must be a JSON object`);
  if (doc.node_type === "array")
    return { kind: "array", metadata: parseArrayMetadataV3(doc, where) };
  if (doc.node_type === "group")
    return { kind: "group", metadata: parseGroupMetadataV3(doc, where) };
  if (!("node_type" in doc))
    throw new MetadataError(`${where} is missing the required field "node_type"`);
  throw new MetadataError(
    `${where}: "node_type" must be "array" or "group", got ${formatValue(doc.node_type)}`,
  );
}

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
