import { METADATA_KEYS } from "@z/metadata";
import {
  isListable,
  joinKey,
  type Listable,
  prefixOf,
  type Readable,
  throwIfAborted,
  UnsupportedOperationError,
  type Writable,
} from "@z/store-core";
import type { ConsolidatedHolder } from "../consolidated/update-consolidated.js";
import { WriteJournal } from "../copy/copy-journal.js";
import { ContainsArrayError, ContainsGroupError, NodeError } from "../errors.js";
import { DEFAULT_CONCURRENCY, forEachConcurrent } from "../io/concurrency.js";
import { logNode } from "../logging/node-logging.js";
import { readNodeMetadata } from "../nodes/metadata-io.js";
import type { NodeMetadata } from "../nodes/node-documents.js";
import { createExclusive, isNodeDocument } from "./exclusive-create.js";
import { changeHolders } from "./holder-changes.js";
import { bumpAllEpochs } from "./key-lock.js";

/** Options of {@link moveNode}. */
export interface MoveOptions {
  /** Keys copied (and deleted) at once (default 8). */
  concurrency?: number;
  /** Abort the move (before its source is deleted, it is then taken back). */
  signal?: AbortSignal;
}

/** The documents that hold metadata rather than chunks. */
const METADATA_NAMES = new Set<string>(Object.values(METADATA_KEYS));

function baseName(key: string): string {
  return key.slice(key.lastIndexOf("/") + 1);
}

function parentOf(key: string): string {
  const slash = key.lastIndexOf("/");
  return slash < 0 ? "" : key.slice(0, slash);
}

function depthOf(key: string): number {
  return key.split("/").length;
}

/**
 * Refuses, before anything is written, a move that cannot work: onto the node itself or below
 * it (deleting the source would take the copy along), or in a store that cannot list the keys
 * to move.
 * @throws NodeError; UnsupportedOperationError
 */
export function checkMove(store: Readable, from: string, destination: string): void {
  if (destination === from || destination.startsWith(prefixOf(from))) {
    throw new NodeError(`Cannot move /${from} to /${destination}: that is the node or below it`, {
      path: from,
    });
  }
  if (!isListable(store)) {
    throw new UnsupportedOperationError(
      `Cannot move /${from}: the store cannot list keys, so the keys below the node are unknown`,
    );
  }
}

/** What {@link moveNode} wrote. */
export interface MovedNode {
  /** The moved nodes' metadata at their new paths, sorted by path. */
  written: [string, NodeMetadata][];
  /** The holders of consolidated metadata as written, by path. */
  holders: Map<string, ConsolidatedHolder>;
}

/**
 * Moves a node (an array or a group with all below it) to another path of its store, key by
 * key and byte for byte, as zarr-python 2's `move` renames keys: chunks, metadata, nested
 * consolidated metadata and keys no node claims move unchanged. Copies first, deletes after:
 * 1. every key below the source is copied to the destination, chunks first, then the
 *    metadata documents deepest first, the node's own defining document last and only if no
 *    one created a node there meanwhile, so no reader sees a node before what is below it;
 * 2. the consolidated metadata of the groups above the source or the destination that hold
 *    some is updated: the moved nodes listed at the new place, gone from the old one;
 * 3. the source's keys are deleted.
 * A failure (or an abort) in steps 1-2 puts back every key written so far, consolidated
 * metadata included, and the store is as before: the source whole, no destination. A failure
 * in step 3 leaves the destination whole and listed, and part of the source's keys, no longer
 * listed in consolidated metadata: deleting the source again (or
 * `store.deletePrefix("<source>/")`) finishes the move. No data is lost at any point.
 * The caller checks that the source exists, the destination does not and its parent group
 * does.
 * @throws UnsupportedOperationError when the store cannot list keys; ContainsArrayError /
 *   ContainsGroupError when another writer created a node at the destination meanwhile;
 *   NodeError when the destination is the source or below it
 */
export async function moveNode(
  store: Readable & Writable,
  source: { path: string; kind: "array" | "group"; zarrFormat: 2 | 3 },
  destination: string,
  options: MoveOptions = {},
): Promise<MovedNode> {
  const { signal } = options;
  const concurrency = options.concurrency ?? DEFAULT_CONCURRENCY;
  const from = source.path;
  checkMove(store, from, destination);
  const keys: string[] = [];
  for await (const key of (store as Readable & Writable & Listable).listPrefix(prefixOf(from))) {
    throwIfAborted(signal);
    keys.push(key);
  }
  // Keys and node paths below the source, at the destination.
  const target = (key: string) => joinKey(destination, key.slice(from.length + 1));
  const movedPath = (path: string) => (path === from ? destination : target(path));
  const isMetadata = (key: string) => METADATA_NAMES.has(baseName(key));
  const ownDocuments = keys.filter((key) => parentOf(key) === from && isNodeDocument(key));
  const metadataKeys = keys
    .filter((key) => isMetadata(key) && !ownDocuments.includes(key))
    .sort((a, b) => depthOf(b) - depthOf(a));
  const nodePaths = [from, ...new Set(metadataKeys.filter(isNodeDocument).map(parentOf))];

  const journal = await WriteJournal.open(store, destination, signal);
  const copy = async (key: string) => {
    const bytes = await store.get(key, { signal });
    // Gone since the listing: another writer deleted it, so the copy has nothing to carry.
    if (bytes !== undefined) await journal.store.set(target(key), bytes, { signal });
  };
  let holders: Map<string, ConsolidatedHolder>;
  const written: [string, NodeMetadata][] = [];
  try {
    await forEachConcurrent(
      keys.filter((key) => !isMetadata(key)),
      concurrency,
      copy,
      signal,
    );
    for (const key of metadataKeys) await copy(key);
    for (const key of ownDocuments) {
      const bytes = await store.get(key, { signal });
      if (bytes === undefined) continue;
      if (!(await createExclusive(journal.store, target(key), bytes, signal))) {
        const hint = "another writer created it just now";
        throw source.kind === "array"
          ? new ContainsArrayError(destination, hint)
          : new ContainsGroupError(destination, hint);
      }
    }
    await forEachConcurrent(
      nodePaths,
      concurrency,
      async (path) => {
        const moved = movedPath(path);
        const node = await readNodeMetadata(store, moved, {
          zarrFormat: source.zarrFormat,
          consolidated: false,
          probeV2Consolidated: false,
          signal,
        });
        if (node) written.push([moved, node]);
      },
      signal,
    );
    written.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    holders = await changeHolders(
      journal.store,
      [from, destination],
      source.zarrFormat,
      { removed: [from], written },
      { signal, concurrency },
    );
  } catch (error) {
    await journal.rollback(error, concurrency);
    throw error;
  }
  logNode("moved", source.kind, destination, () => `from /${from}`);
  // The source is unlisted already: only its keys are left to delete.
  await store.deletePrefix(prefixOf(from), { signal });
  bumpAllEpochs();
  return { written, holders };
}
