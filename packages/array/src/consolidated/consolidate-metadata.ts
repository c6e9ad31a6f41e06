import {
  isJsonObject,
  type JsonObject,
  type JsonValue,
  METADATA_KEYS,
  MetadataError,
} from "@z/metadata";
import {
  isListable,
  isWritable,
  joinKey,
  NotFoundError,
  normalizePath,
  prefixOf,
  type StoreLike,
  UnsupportedOperationError,
} from "@z/store-core";
import { notWritableError } from "@z/store-core/internal";
import { DEFAULT_CONCURRENCY, forEachConcurrent } from "../io/concurrency.js";
import { loadWritePath } from "../lazy-features.js";
import { enterStore } from "../logging/store-logging-scope.js";
import { ZarrGroup } from "../nodes/group.js";
import { readJson, readNodeMetadata } from "../nodes/metadata-io.js";
import { ConsolidatedMetadata } from "./consolidated-model.js";

/** Options of {@link consolidateMetadata}. */
export interface ConsolidateOptions {
  /** The group whose hierarchy to consolidate (default the root). */
  path?: string;
  /** Only consider this format (default: the group's). */
  zarrFormat?: 2 | 3;
  /** Metadata documents read at once (default 8). */
  concurrency?: number;
  /** Abort the reads and the write. */
  signal?: AbortSignal;
}

/**
 * Writes the consolidated metadata of a group's hierarchy, exactly as zarr-python does: v3,
 * an inline `consolidated_metadata` (every node below the group, keyed by its relative path)
 * in the group's `zarr.json`; v2, a `.zmetadata` document next to the group's `.zgroup`.
 * Opening the group then lists the whole hierarchy from that one document.
 *
 * Nodes are found by listing the store once; only nodes of the group's format whose parents
 * are all groups are included. Changes made afterwards by other writers are not in it until
 * this runs again.
 *
 * ```ts
 * await consolidateMetadata(store);
 * const root = await openGroup(store); // one read; members(), get() and tree() need no more
 * ```
 * @returns the group, with its consolidated metadata
 * @throws NotFoundError when there is no group at `path`; ReadOnlyError,
 *   UnsupportedOperationError (a store that cannot list keys); MetadataError for malformed
 *   node documents
 * @example
 * ```ts
 * await consolidateMetadata("data.zarr"); // a location, as open() takes, or a store
 * // Opening the root now reads every node's metadata at once.
 * const root = await openGroup("data.zarr");
 * ```
 * @category Arrays and groups
 */
export async function consolidateMetadata(
  store: StoreLike | string,
  options: ConsolidateOptions = {},
): Promise<ZarrGroup> {
  const s = await enterStore(store);
  const path = normalizePath(options.path);
  if (!isWritable(s)) throw notWritableError(s, `/${path}`, "write consolidated metadata to");
  if (!isListable(s)) {
    throw new UnsupportedOperationError(`Cannot consolidate /${path}: the store cannot list keys`);
  }
  const { signal } = options;
  const root = await readNodeMetadata(s, path, {
    zarrFormat: options.zarrFormat,
    consolidated: false,
    signal,
  });
  if (root?.kind !== "group") {
    throw new NotFoundError(
      `/${path}`,
      "group",
      root ? "it is an array; only groups hold consolidated metadata" : "no group metadata there",
    );
  }
  const format = root.metadata.zarrFormat;
  const prefix = prefixOf(path);
  const names =
    format === 3
      ? [METADATA_KEYS.zarrJson]
      : [METADATA_KEYS.zarray, METADATA_KEYS.zgroup, METADATA_KEYS.zattrs];
  const documents: string[] = [];
  for await (const key of s.listPrefix(prefix)) {
    const rel = key.slice(prefix.length);
    if (names.some((name) => rel === name || rel.endsWith(`/${name}`))) documents.push(rel);
  }
  const contents = new Map<string, JsonValue>();
  await forEachConcurrent(
    documents,
    options.concurrency ?? DEFAULT_CONCURRENCY,
    async (rel) => {
      const doc = await readJson(s, prefix + rel, signal);
      if (doc !== undefined) contents.set(rel, doc);
    },
    signal,
  );
  const consolidated = format === 3 ? consolidateV3(contents, path) : consolidateV2(contents, path);
  // Written in turn with the other updates of the group's document, and a v3 group's own
  // metadata read fresh: attributes updated since the scan read them stay.
  const { writeScannedConsolidated } = await loadWritePath();
  const metadata = await writeScannedConsolidated(s, path, root.metadata, consolidated, {
    signal,
  });
  return new ZarrGroup(s, path, metadata, { consolidated });
}

/** Keeps the nodes whose parents, up to the consolidated group, are all groups. */
function reachable(kinds: Map<string, "array" | "group">): string[] {
  return [...kinds.keys()].filter((p) => {
    for (let cut = p.lastIndexOf("/"); cut > 0; cut = p.lastIndexOf("/", cut - 1)) {
      if (kinds.get(p.slice(0, cut)) !== "group") return false;
    }
    return true;
  });
}

function consolidateV3(contents: Map<string, JsonValue>, path: string): ConsolidatedMetadata {
  const docs = new Map<string, JsonObject>();
  const kinds = new Map<string, "array" | "group">();
  for (const [rel, doc] of contents) {
    if (rel === METADATA_KEYS.zarrJson) continue;
    const node = rel.slice(0, -METADATA_KEYS.zarrJson.length - 1);
    if (
      !isJsonObject(doc) ||
      doc.zarr_format !== 3 ||
      (doc.node_type !== "array" && doc.node_type !== "group")
    ) {
      throw new MetadataError(`/${joinKey(path, rel)} is not a v3 array or group document`);
    }
    docs.set(node, doc);
    kinds.set(node, doc.node_type);
  }
  return ConsolidatedMetadata.ofV3Documents(
    reachable(kinds).map((node) => [node, docs.get(node) as JsonObject]),
    `/${joinKey(path, METADATA_KEYS.zarrJson)}`,
  );
}

function consolidateV2(contents: Map<string, JsonValue>, path: string): ConsolidatedMetadata {
  const kinds = new Map<string, "array" | "group">();
  for (const rel of contents.keys()) {
    if (rel.endsWith(METADATA_KEYS.zarray))
      kinds.set(rel.slice(0, -METADATA_KEYS.zarray.length - 1), "array");
    else if (rel.endsWith(METADATA_KEYS.zgroup))
      kinds.set(rel.slice(0, -METADATA_KEYS.zgroup.length - 1), "group");
  }
  kinds.delete("");
  const nodes = new Set(["", ...reachable(kinds)]);
  const metadata: JsonObject = {};
  for (const [rel, doc] of contents) {
    const cut = rel.lastIndexOf("/");
    if (nodes.has(cut < 0 ? "" : rel.slice(0, cut))) metadata[rel] = doc;
  }
  return ConsolidatedMetadata.fromV2(
    { metadata, zarr_consolidated_format: 1 },
    `/${joinKey(path, METADATA_KEYS.zmetadata)}`,
  );
}
