import {
  type ArrayMetadata,
  arrayMetadataToV2Json,
  arrayMetadataToV3Json,
  encodeJson,
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
  parseJson,
} from "@z/metadata";
import { joinKey, type Readable, type Writable } from "@z/store-core";

/** The metadata of a node, tagged with its kind. */
export type NodeMetadata = { kind: "array"; metadata: ArrayMetadata } | { kind: "group"; metadata: GroupMetadata };

/** Options of metadata reads. */
export interface ReadMetadataOptions {
  /** Only look for this format; by default v3 is tried first, then v2. */
  zarrFormat?: 2 | 3;
  /** Abort the reads. */
  signal?: AbortSignal;
}

async function readJson(store: Readable, key: string, signal?: AbortSignal): Promise<JsonValue | undefined> {
  const bytes = await store.get(key, { signal });
  return bytes === undefined ? undefined : parseJson(bytes, `/${key}`);
}

/**
 * Reads the metadata of the node at `path`: `zarr.json` (v3), else `.zarray` / `.zgroup`
 * with `.zattrs` (v2). Resolves to `undefined` when there is no node.
 * @throws MetadataError (and subclasses) for malformed or unsupported metadata
 */
export async function readNodeMetadata(
  store: Readable,
  path: string,
  options: ReadMetadataOptions = {},
): Promise<NodeMetadata | undefined> {
  const { zarrFormat, signal } = options;
  if (zarrFormat !== 2) {
    const key = joinKey(path, METADATA_KEYS.zarrJson);
    const doc = await readJson(store, key, signal);
    if (doc !== undefined) return parseV3Node(doc, `/${key}`);
  }
  if (zarrFormat !== 3) {
    const [zarray, zgroup] = await Promise.all([
      readJson(store, joinKey(path, METADATA_KEYS.zarray), signal),
      readJson(store, joinKey(path, METADATA_KEYS.zgroup), signal),
    ]);
    if (zarray === undefined && zgroup === undefined) return undefined;
    const zattrs = await readJson(store, joinKey(path, METADATA_KEYS.zattrs), signal);
    if (zarray !== undefined) {
      return {
        kind: "array",
        metadata: parseArrayMetadataV2(zarray, zattrs, `/${joinKey(path, METADATA_KEYS.zarray)}`),
      };
    }
    return {
      kind: "group",
      metadata: parseGroupMetadataV2(zgroup as JsonValue, zattrs, `/${joinKey(path, METADATA_KEYS.zgroup)}`),
    };
  }
  return undefined;
}

/** Parses a v3 `zarr.json` of either node type. */
export function parseV3Node(doc: JsonValue, where: string): NodeMetadata {
  if (!isJsonObject(doc)) throw new MetadataError(`${where} must be a JSON object`);
  if (doc.node_type === "array") return { kind: "array", metadata: parseArrayMetadataV3(doc, where) };
  if (doc.node_type === "group") return { kind: "group", metadata: parseGroupMetadataV3(doc, where) };
  if (!("node_type" in doc)) throw new MetadataError(`${where} is missing the required field "node_type"`);
  throw new MetadataError(`${where}: "node_type" must be "array" or "group", got ${JSON.stringify(doc.node_type)}`);
}

function sortKeys(doc: JsonObject): JsonObject {
  return Object.fromEntries(Object.entries(doc).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** The metadata documents (store key relative to the node, bytes) an array's metadata is written as. */
export function arrayMetadataDocuments(meta: ArrayMetadata): [string, Uint8Array][] {
  if (meta.zarrFormat === 3) return [[METADATA_KEYS.zarrJson, encodeJson(arrayMetadataToV3Json(meta), 2)]];
  const docs: [string, Uint8Array][] = [[METADATA_KEYS.zarray, encodeJson(sortKeys(arrayMetadataToV2Json(meta)), 4)]];
  if (Object.keys(meta.attributes).length > 0) docs.push([METADATA_KEYS.zattrs, encodeJson(meta.attributes, 4)]);
  return docs;
}

/** The metadata documents a group's metadata is written as. */
export function groupMetadataDocuments(meta: GroupMetadata): [string, Uint8Array][] {
  if (meta.zarrFormat === 3) return [[METADATA_KEYS.zarrJson, encodeJson(groupMetadataToV3Json(meta), 2)]];
  const docs: [string, Uint8Array][] = [[METADATA_KEYS.zgroup, encodeJson({ zarr_format: 2 }, 4)]];
  if (Object.keys(meta.attributes).length > 0) docs.push([METADATA_KEYS.zattrs, encodeJson(meta.attributes, 4)]);
  return docs;
}

/** Writes metadata documents under a node path. */
export async function writeDocuments(
  store: Writable,
  path: string,
  docs: [string, Uint8Array][],
  signal?: AbortSignal,
): Promise<void> {
  await Promise.all(docs.map(([key, bytes]) => store.set(joinKey(path, key), bytes, { signal })));
}
