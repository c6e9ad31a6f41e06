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
  parseJson,
} from "@z/metadata";
import { joinKey, NotFoundError, type Readable, type Writable } from "@z/store-core";
import { DEFAULT_CONCURRENCY, forEachConcurrent } from "./concurrency.js";
import { ConsolidatedMetadata } from "./consolidated.js";
import { checkChoice } from "./option-checks.js";

/**
 * The metadata of a node, tagged with its kind. A group may carry the consolidated metadata of
 * the nodes below it (read from its `zarr.json` or `.zmetadata`).
 */
export type NodeMetadata =
  | { kind: "array"; metadata: ArrayMetadata }
  | { kind: "group"; metadata: GroupMetadata; consolidated?: ConsolidatedMetadata };

/** Options of metadata reads. */
export interface ReadMetadataOptions {
  /** Only look for this format; by default v3 is tried first, then v2. */
  zarrFormat?: 2 | 3;
  /**
   * Consolidated metadata of a group: by default used when present; `false` ignores it;
   * `true` requires it (a group without it is a NotFoundError).
   */
  consolidated?: boolean;
  /**
   * Whether to look for a v2 `.zmetadata` (default true). It costs a request when absent, so
   * lookups of children below a group that has none skip it.
   */
  probeV2Consolidated?: boolean;
  /** The kind of node expected: arrays never look for consolidated metadata. */
  kind?: "array" | "group";
  /** Abort the reads. */
  signal?: AbortSignal;
}

/** Reads and parses a JSON document; `undefined` when the key is missing. */
export async function readJson(
  store: Readable,
  key: string,
  signal?: AbortSignal,
): Promise<JsonValue | undefined> {
  const bytes = await store.get(key, { signal });
  return bytes === undefined ? undefined : parseJson(bytes, `/${key}`);
}

function noConsolidated(path: string): NotFoundError {
  return new NotFoundError(
    `/${path}`,
    "consolidated metadata",
    "the group has none; write it with consolidateMetadata() or open with consolidated: false",
  );
}

/**
 * Reads the metadata of the node at `path`: `zarr.json` (v3), else `.zmetadata` (v2
 * consolidated, for groups) or `.zarray` / `.zgroup` with `.zattrs` (v2). Resolves to
 * `undefined` when there is no node.
 *
 * Costs: a v3 node, one request; a v2 group with consolidated metadata, one request when
 * `zarrFormat: 2` is given and two otherwise (the `zarr.json` probe, then `.zmetadata`).
 * @throws MetadataError (and subclasses) for malformed or unsupported metadata, consolidated
 *   metadata included
 */
export async function readNodeMetadata(
  store: Readable,
  path: string,
  options: ReadMetadataOptions = {},
): Promise<NodeMetadata | undefined> {
  checkChoice(options.zarrFormat, [2, 3], "zarrFormat");
  checkChoice(options.kind, ["array", "group"], "kind");
  checkChoice(options.consolidated, [true, false], "consolidated");
  const { zarrFormat, signal } = options;
  const useConsolidated = options.consolidated !== false && options.kind !== "array";
  if (zarrFormat !== 2) {
    const key = joinKey(path, METADATA_KEYS.zarrJson);
    const doc = await readJson(store, key, signal);
    if (doc !== undefined) {
      const node = parseV3Node(doc, `/${key}`);
      if (node.kind === "group" && useConsolidated) {
        node.consolidated = ConsolidatedMetadata.fromV3(
          node.metadata.consolidatedMetadata,
          `/${key}`,
        );
        if (options.consolidated === true && !node.consolidated) throw noConsolidated(path);
      }
      return node;
    }
  }
  if (zarrFormat === 3) return undefined;
  if (useConsolidated && options.probeV2Consolidated !== false) {
    const found = await readV2Consolidated(store, path, signal);
    if (found) return found;
  }
  const node = await readV2Node(store, path, signal);
  if (node?.kind === "group" && options.consolidated === true) throw noConsolidated(path);
  return node;
}

/** A v2 group through its `.zmetadata`, whose own entries (`.zgroup`, `.zattrs`) save their reads. */
async function readV2Consolidated(
  store: Readable,
  path: string,
  signal?: AbortSignal,
): Promise<NodeMetadata | undefined> {
  const key = joinKey(path, METADATA_KEYS.zmetadata);
  const doc = await readJson(store, key, signal);
  if (doc === undefined) return undefined;
  const consolidated = ConsolidatedMetadata.fromV2(doc, `/${key}`);
  const self = consolidated.selfV2();
  if (self?.zgroup) {
    const where = `/${key} ${JSON.stringify(METADATA_KEYS.zgroup)}`;
    return {
      kind: "group",
      metadata: parseGroupMetadataV2(self.zgroup, self.zattrs, where),
      consolidated,
    };
  }
  // Consolidated metadata without the group's own documents (not what zarr-python writes, but
  // legal): read them from the store.
  const node = await readV2Node(store, path, signal);
  return node?.kind === "group" ? { ...node, consolidated } : node;
}

async function readV2Node(
  store: Readable,
  path: string,
  signal?: AbortSignal,
): Promise<NodeMetadata | undefined> {
  // All three at once: `.zattrs` is wasted only where there is no node at all.
  const [zarray, zgroup, zattrs] = await Promise.all([
    readJson(store, joinKey(path, METADATA_KEYS.zarray), signal),
    readJson(store, joinKey(path, METADATA_KEYS.zgroup), signal),
    readJson(store, joinKey(path, METADATA_KEYS.zattrs), signal),
  ]);
  if (zarray === undefined && zgroup === undefined) return undefined;
  return parseV2Node(zarray, zgroup, zattrs, (name) => `/${joinKey(path, name)}`);
}

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

/** Writes metadata documents under a node path. */
export async function writeDocuments(
  store: Writable,
  path: string,
  docs: [string, Uint8Array][],
  signal?: AbortSignal,
): Promise<void> {
  await Promise.all(docs.map(([key, bytes]) => store.set(joinKey(path, key), bytes, { signal })));
}

/** Writes many documents (full store keys), at most `concurrency` at a time. */
export async function writeManyDocuments(
  store: Writable,
  docs: Iterable<[string, Uint8Array]>,
  options: { signal?: AbortSignal; concurrency?: number } = {},
): Promise<void> {
  await forEachConcurrent(
    docs,
    options.concurrency ?? DEFAULT_CONCURRENCY,
    ([key, bytes]) => store.set(key, bytes, { signal: options.signal }),
    options.signal,
  );
}
