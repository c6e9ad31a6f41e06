// Read-modify-write of metadata documents: attribute updates, resizes and the consolidated
// metadata that lists nodes. Each goes through updateKey (read-modify-write.ts), as chunk
// updates do, and its update function re-reads the stored document and applies only its own
// change, so concurrent updates of one node (other objects, other processes) all survive.
// Loaded with the write path (write-path.ts), so an app that only reads does not download it.
import { afterLoading } from "@z/codecs";
import { locateError } from "@z/errors";
import {
  encodeJson,
  type GroupMetadata,
  type JsonObject,
  type JsonValue,
  METADATA_KEYS,
  parseJson,
} from "@z/metadata";
import { validateAttributes } from "@z/metadata/internal";
import { joinKey, NotFoundError, type Readable, type Writable } from "@z/store-core";
import { consolidatedDocuments } from "../consolidated/consolidated-documents.js";
import { ConsolidatedMetadata } from "../consolidated/consolidated-model.js";
import {
  type ConsolidatedHolder,
  consolidatedUpdate,
  type HierarchyChange,
} from "../consolidated/update-consolidated.js";
import { loadV2Parser } from "../lazy-features.js";
import { loadExtensionsFor } from "../nodes/load-extensions.js";
import { readNodeMetadata } from "../nodes/metadata-io.js";
import {
  type NodeMetadata,
  nodeMetadataDocuments,
  zarrayDocument,
} from "../nodes/node-documents.js";
import { parseV3Node } from "../nodes/node-parse.js";
import { replaceKey, updateKey } from "./read-modify-write.js";

/** One node's own change to its metadata: attributes merged (or replaced), or a new shape. */
export interface MetadataChange {
  /** Attributes to merge onto the stored ones (replacing them with `replaceAttributes`). */
  attributes?: JsonObject;
  /** Replace the stored attributes with `attributes` instead of merging. */
  replaceAttributes?: boolean;
  /** The array's new shape. */
  shape?: readonly number[];
}

/** Options of the metadata updates. */
export interface MetadataUpdateOptions {
  /** Abort the reads and writes. */
  signal?: AbortSignal;
}

function mergedAttributes(stored: JsonObject, change: MetadataChange): JsonObject {
  const attributes = change.attributes ?? {};
  return change.replaceAttributes ? { ...attributes } : { ...stored, ...attributes };
}

/** Node metadata with a change applied (no I/O). */
function applyChange(node: NodeMetadata, change: MetadataChange): NodeMetadata {
  if (node.kind === "group") {
    const attributes = mergedAttributes(node.metadata.attributes, change);
    return { kind: "group", metadata: { ...node.metadata, attributes } };
  }
  const attributes =
    change.attributes === undefined
      ? node.metadata.attributes
      : mergedAttributes(node.metadata.attributes, change);
  const shape = change.shape === undefined ? node.metadata.shape : [...change.shape];
  return { kind: "array", metadata: { ...node.metadata, attributes, shape } };
}

/** Parses a stored JSON document, its errors carrying its key and node path. */
async function parseDocument<T>(
  bytes: Uint8Array,
  key: string,
  path: string,
  parse: (doc: JsonValue, where: string) => T,
): Promise<T> {
  const where = `/${key}`;
  try {
    const doc = parseJson(bytes, where);
    await loadExtensionsFor(doc);
    return await afterLoading(() => parse(doc, where));
  } catch (error) {
    throw locateError(error, "", { key, path });
  }
}

function gone(path: string, kind: "array" | "group"): NotFoundError {
  return new NotFoundError(`/${path}`, kind, "it was deleted or replaced while being updated");
}

/**
 * Applies a node's own change to its stored metadata, without losing a concurrent update of
 * the same document: the document is read fresh and only this change applied to it (attribute
 * keys merged onto the stored attributes, the shape set), through {@link updateKey}. A v3 node
 * has one document (`zarr.json`, which keeps the consolidated metadata a group holds there);
 * a v2 node keeps attributes in `.zattrs` and an array's shape in `.zarray`, updated each on
 * its own.
 * @param node the node's metadata as the caller knows it (its kind and format, and for v2 the
 *   parts in the other document)
 * @returns the node's metadata as stored by this update (a v3 group's with the consolidated
 *   metadata it holds)
 * @throws NotFoundError when the node is no longer there
 */
export async function updateNodeMetadata(
  store: Readable & Writable,
  path: string,
  node: NodeMetadata,
  change: MetadataChange,
  options: MetadataUpdateOptions = {},
): Promise<NodeMetadata> {
  const { signal } = options;
  let result: NodeMetadata = node;
  if (node.metadata.zarrFormat === 3) {
    const key = joinKey(path, METADATA_KEYS.zarrJson);
    await updateKey(
      store,
      key,
      async (bytes) => {
        if (bytes === undefined) throw gone(path, node.kind);
        const stored = await parseDocument(bytes, key, path, parseV3Node);
        if (stored.kind !== node.kind) throw gone(path, node.kind);
        const next = applyChange(stored, change);
        result = next;
        // A group holding consolidated metadata keeps it in the same document, as stored.
        if (next.kind === "group" && next.metadata.consolidatedMetadata) {
          const held = next.metadata.consolidatedMetadata;
          const consolidated = await parseDocument(bytes, key, path, (_, where) =>
            ConsolidatedMetadata.fromV3(held, where),
          );
          result = { ...next, consolidated };
        }
        return nodeMetadataDocuments(next)[0][1];
      },
      { signal },
    );
    return result;
  }
  if (change.attributes !== undefined) {
    const key = joinKey(path, METADATA_KEYS.zattrs);
    await updateKey(
      store,
      key,
      async (bytes) => {
        const stored =
          bytes === undefined
            ? {}
            : await parseDocument(bytes, key, path, (doc, where) => validateAttributes(doc, where));
        const attributes = mergedAttributes(stored, change);
        result = { ...result, metadata: { ...result.metadata, attributes } } as NodeMetadata;
        // Written even when emptied: `.zattrs` is the document a v2 reader takes them from.
        return encodeJson(attributes, 4);
      },
      { signal },
    );
  }
  const shape = change.shape;
  if (shape !== undefined && node.kind === "array") {
    const key = joinKey(path, METADATA_KEYS.zarray);
    const { parseV2Node } = await loadV2Parser();
    await updateKey(
      store,
      key,
      async (bytes) => {
        if (bytes === undefined) throw gone(path, "array");
        const stored = await parseDocument(bytes, key, path, (doc, where) =>
          parseV2Node(doc, undefined, undefined, () => where),
        );
        if (stored.kind !== "array") throw gone(path, "array");
        const metadata = { ...stored.metadata, shape: [...shape] };
        result = {
          kind: "array",
          metadata: { ...metadata, attributes: result.metadata.attributes },
        };
        return encodeJson(zarrayDocument(metadata), 4);
      },
      { signal },
    );
  }
  return result;
}

/** The store key of the document holding a group's consolidated metadata. */
function holderKey(path: string, zarrFormat: 2 | 3): string {
  return joinKey(path, zarrFormat === 3 ? METADATA_KEYS.zarrJson : METADATA_KEYS.zmetadata);
}

/** A holder parsed from its consolidated metadata document, or undefined when it holds none. */
async function parseHolder(
  bytes: Uint8Array,
  key: string,
  path: string,
  zarrFormat: 2 | 3,
): Promise<ConsolidatedHolder | undefined> {
  if (zarrFormat === 3) {
    return parseDocument(bytes, key, path, (doc, where) => {
      const node = parseV3Node(doc, where);
      if (node.kind !== "group") return undefined;
      const consolidated = ConsolidatedMetadata.fromV3(node.metadata.consolidatedMetadata, where);
      return consolidated && { path, metadata: node.metadata, consolidated };
    });
  }
  const consolidated = await parseDocument(bytes, key, path, (doc, where) =>
    ConsolidatedMetadata.fromV2(doc, where),
  );
  // v2 writes only `.zmetadata` here; the group's own metadata is what it lists for itself.
  const self = consolidated.selfV2();
  let metadata: GroupMetadata = { zarrFormat: 2, attributes: {}, extraFields: {} };
  if (self?.zgroup) {
    const { parseV2Group } = await loadV2Parser();
    const { zgroup, zattrs } = self;
    metadata = await parseDocument(bytes, key, path, (_, where) =>
      parseV2Group(zgroup, zattrs, where),
    );
  }
  return { path, metadata, consolidated };
}

/**
 * Applies a change to the consolidated metadata a group holds, read fresh through
 * {@link updateKey}, so what other writers changed in it meanwhile stays. `change` may be a
 * function of the holder as read (it may run more than once, on each fresh read).
 * Call it after the change's own documents are written, so the consolidated metadata never
 * lists a node that is not there yet.
 * @returns the holder as written, or undefined when that group holds no consolidated metadata
 *   (any more)
 */
export async function updateHolder(
  store: Readable & Writable,
  holderPath: string,
  zarrFormat: 2 | 3,
  change: HierarchyChange | ((holder: ConsolidatedHolder) => Promise<HierarchyChange>),
  options: MetadataUpdateOptions = {},
): Promise<ConsolidatedHolder | undefined> {
  const key = holderKey(holderPath, zarrFormat);
  let result: ConsolidatedHolder | undefined;
  await updateKey(
    store,
    key,
    async (bytes) => {
      result = undefined;
      if (bytes === undefined) return undefined;
      const holder = await parseHolder(bytes, key, holderPath, zarrFormat);
      // Not (or no longer) a holder: the document stays as it is.
      if (!holder) return bytes;
      const update = consolidatedUpdate(
        holder,
        typeof change === "function" ? await change(holder) : change,
      );
      result = update.holder;
      const written = update.documents.find(([k]) => k === key);
      return written ? written[1] : bytes;
    },
    options,
  );
  return result;
}

/**
 * Writes a node's current metadata (after a resize or an attribute update) into the
 * consolidated metadata of the group at `holderPath` that lists it. Both are read fresh inside
 * the holder's update, the node's documents after the holder's, so whichever of several
 * concurrent updates writes the holder last lists the node as it was stored last. Call it after
 * the node's own documents are written.
 * @param node the node's metadata, listed when its documents cannot be read any more
 * @returns the holder as written, or undefined when that group holds no consolidated metadata
 *   (any more)
 */
export function updateHolderEntry(
  store: Readable & Writable,
  holderPath: string,
  path: string,
  node: NodeMetadata,
  options: MetadataUpdateOptions = {},
): Promise<ConsolidatedHolder | undefined> {
  const { signal } = options;
  const zarrFormat = node.metadata.zarrFormat;
  return updateHolder(
    store,
    holderPath,
    zarrFormat,
    async () => {
      const stored = await readNodeMetadata(store, path, {
        zarrFormat,
        kind: node.kind,
        consolidated: false,
        signal,
      });
      const fresh = stored?.kind === node.kind ? stored : node;
      return { written: [[path, fresh]] };
    },
    options,
  );
}

/**
 * Writes the consolidated metadata a scan of a group's hierarchy produced (what
 * `consolidateMetadata` does), in turn with the other updates of the group's document. v3
 * keeps it in the group's `zarr.json`, read fresh through {@link updateKey}, so the group's
 * attributes as stored stay; v2 replaces `.zmetadata` whole.
 * @param metadata the group's metadata as the scan read it
 * @returns the group's metadata as stored
 * @throws NotFoundError when the group is no longer there (v3)
 */
export async function writeScannedConsolidated(
  store: Readable & Writable,
  path: string,
  metadata: GroupMetadata,
  consolidated: ConsolidatedMetadata,
  options: MetadataUpdateOptions = {},
): Promise<GroupMetadata> {
  const { signal } = options;
  if (metadata.zarrFormat === 2) {
    const [[name, bytes]] = consolidatedDocuments(metadata, consolidated);
    await replaceKey(store, joinKey(path, name), bytes, { signal });
    return metadata;
  }
  const key = joinKey(path, METADATA_KEYS.zarrJson);
  let result = metadata;
  await updateKey(
    store,
    key,
    async (bytes) => {
      if (bytes === undefined) throw gone(path, "group");
      const stored = await parseDocument(bytes, key, path, parseV3Node);
      if (stored.kind !== "group") throw gone(path, "group");
      result = { ...stored.metadata, consolidatedMetadata: consolidated.toJson() };
      return consolidatedDocuments(result, consolidated)[0][1];
    },
    { signal },
  );
  return result;
}
