import type { GroupMetadata } from "@z/metadata";
import { METADATA_KEYS } from "@z/metadata";
import { joinKey, type Readable, type Writable } from "@z/store-core";
import { loadWritePath } from "../lazy-features.js";
import { readJson, readNodeMetadata } from "../nodes/metadata-io.js";
import type { NodeMetadata } from "../nodes/node-documents.js";
import { consolidatedDocuments } from "./consolidated-documents.js";
import type { ConsolidatedMetadata } from "./consolidated-model.js";

// The one way a change to a hierarchy reaches the consolidated metadata that lists it: node
// creation, group attribute edits, array resizes, the h5 layer and copies all describe what
// they changed as a HierarchyChange, applied to each group holding some by updateHolder
// (metadata-update.ts, through updateKey: the holder is read fresh for every update).

/**
 * What changed in a hierarchy, by store path.
 * @inline
 */
export interface HierarchyChange {
  /** Subtrees deleted or replaced (their nodes leave the consolidated metadata first). */
  removed?: readonly string[];
  /** Nodes written, with their new metadata (a group's own path: its new attributes). */
  written?: readonly (readonly [string, NodeMetadata])[];
}

/** A group holding consolidated metadata of its own: its path, metadata and what it lists. */
export interface ConsolidatedHolder {
  /** The group's store path. */
  path: string;
  /** The group's metadata (v3: written with the consolidated metadata in one `zarr.json`). */
  metadata: GroupMetadata;
  /** What it lists. */
  consolidated: ConsolidatedMetadata;
}

function isBelow(path: string, root: string): boolean {
  return path !== root && (root === "" || path.startsWith(`${root}/`));
}

function relative(path: string, root: string): string {
  return path === root ? "" : root === "" ? path : path.slice(root.length + 1);
}

/**
 * A holder's consolidated metadata with a change applied, without I/O: the parts of the change
 * below the holder, made relative to it. A new metadata written for the holder itself replaces
 * its own entry (v2 keeps the group's `.zgroup` / `.zattrs` in `.zmetadata`).
 */
export function withHierarchyChange(
  holderPath: string,
  consolidated: ConsolidatedMetadata,
  change: HierarchyChange,
): ConsolidatedMetadata {
  const remove = (change.removed ?? [])
    .filter((p) => isBelow(p, holderPath))
    .map((p) => relative(p, holderPath));
  const add = (change.written ?? [])
    .filter(([p]) => p === holderPath || isBelow(p, holderPath))
    .map(([p, node]) => [relative(p, holderPath), node] as const);
  return consolidated.withChanges({ remove, add });
}

/**
 * The documents that bring a holder's consolidated metadata in step with a change, and the
 * holder as it will be. v3: the holder's `zarr.json` (its own metadata, with a new one the
 * change gives for it, and what it lists); v2: `.zmetadata`. Keys are full store keys.
 */
export function consolidatedUpdate(
  holder: ConsolidatedHolder,
  change: HierarchyChange,
): { holder: ConsolidatedHolder; documents: [string, Uint8Array][] } {
  const own = (change.written ?? []).find(([p]) => p === holder.path)?.[1];
  let metadata = own?.kind === "group" ? own.metadata : holder.metadata;
  const consolidated = withHierarchyChange(holder.path, holder.consolidated, change);
  if (metadata.zarrFormat === 3)
    metadata = { ...metadata, consolidatedMetadata: consolidated.toJson() };
  const documents = consolidatedDocuments(metadata, consolidated).map(
    ([key, bytes]) => [joinKey(holder.path, key), bytes] as [string, Uint8Array],
  );
  return { holder: { path: holder.path, metadata, consolidated }, documents };
}

/**
 * Writes a change to the consolidated metadata a group holds (see {@link consolidatedUpdate}).
 * The holder is read fresh and the change applied to it in turn with the other updates of its
 * document (see `updateHolder` in metadata-update.ts, loaded with the write path), so what
 * other writers changed in it meanwhile stays. Call it after the change's own documents are
 * written, so the consolidated metadata never lists a node that is not there yet.
 * @param holder the group holding it (its path and format)
 * @returns the holder as written, or `holder` with the change applied when it holds no
 *   consolidated metadata any more (nothing is written then)
 */
export async function updateConsolidated(
  store: Readable & Writable,
  holder: ConsolidatedHolder,
  change: HierarchyChange,
  options: { signal?: AbortSignal } = {},
): Promise<ConsolidatedHolder> {
  const { updateHolder } = await loadWritePath();
  const format = holder.metadata.zarrFormat;
  const written = await updateHolder(store, holder.path, format, change, options);
  return written ?? consolidatedUpdate(holder, change).holder;
}

/** The store path of the group holding the consolidated metadata a view of it belongs to. */
export function holderPathOf(groupPath: string, view: ConsolidatedMetadata): string {
  const inHolder = view.pathInHolder;
  return groupPath.slice(0, groupPath.length - inHolder.length).replace(/\/$/, "");
}

/**
 * The consolidated metadata the group at `path` holds itself, with the group's metadata, or
 * undefined when it holds none (or is not a group). A v2 group costs one read (`.zmetadata`)
 * when it holds none.
 */
export async function readConsolidatedHolder(
  store: Readable,
  path: string,
  options: { zarrFormat?: 2 | 3; signal?: AbortSignal } = {},
): Promise<ConsolidatedHolder | undefined> {
  const { zarrFormat, signal } = options;
  if (zarrFormat === 2) {
    const key = joinKey(path, METADATA_KEYS.zmetadata);
    if ((await readJson(store, key, signal)) === undefined) return undefined;
  }
  const node = await readNodeMetadata(store, path, { zarrFormat, kind: "group", signal });
  if (node?.kind !== "group" || !node.consolidated) return undefined;
  return { path, metadata: node.metadata, consolidated: node.consolidated };
}
