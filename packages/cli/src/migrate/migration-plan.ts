import {
  encodeJson,
  type JsonObject,
  type Listable,
  loadDataTypes,
  parseArrayMetadataV3,
  parseGroupMetadataV3,
  prefixOf,
  type Readable,
  type Writable,
} from "@z/zarr";
import { MigrationError } from "./migration-error.js";
import { findV2Nodes, type V2Node } from "./v2-nodes.js";
import { migrateArrayDocument, migrateGroupDocument } from "./v3-documents.js";

/** One `zarr.json` a migration writes. */
export interface PlannedDocument {
  /** The node it is for. */
  node: V2Node;
  /** Its key in the store. */
  key: string;
  /** The document. */
  document: JsonObject;
}

/** Everything a migration writes and removes, worked out before any of it is done. */
export interface MigrationPlan {
  /** The v2 nodes, parents before children. */
  nodes: V2Node[];
  /** The documents to write, children before their parents. */
  documents: PlannedDocument[];
  /** The v2 metadata keys to remove afterwards (empty unless asked). */
  removals: string[];
}

/** The v3 document of a node, checked by our own v3 parser, so nothing unreadable is written. */
function planNode(node: V2Node, overwrite: boolean): PlannedDocument {
  const key = `${prefixOf(node.path)}zarr.json`;
  if (node.existingV3 !== undefined && !overwrite) {
    throw new MigrationError(node.path, `${key} already exists (pass --overwrite to replace it)`);
  }
  const isArray = node.zarray !== undefined;
  const document = isArray ? migrateArrayDocument(node) : migrateGroupDocument(node);
  try {
    if (isArray) parseArrayMetadataV3(document, key);
    else parseGroupMetadataV3(document, key);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new MigrationError(node.path, `its v3 metadata would not be valid: ${message}`, {
      cause: error,
    });
  }
  return { node, key, document };
}

/**
 * Works out the migration of the v2 hierarchy at the root of a store: every node's v3
 * document, converted and checked, so a node that cannot be migrated is found before anything
 * is written.
 * @param options.overwrite replace a `zarr.json` already there (else that node is an error)
 * @param options.removeV2Metadata also remove each node's v2 documents afterwards
 * @throws MigrationError naming the node (one with no v2 metadata at the root: path "")
 */
export async function planMigration(
  store: Readable & Listable,
  options: { overwrite?: boolean; removeV2Metadata?: boolean } = {},
): Promise<MigrationPlan> {
  const nodes = await findV2Nodes(store);
  if (nodes.length === 0) {
    const v3 = await store.get("zarr.json");
    throw new MigrationError(
      "",
      v3 ? "it is already a Zarr v3 hierarchy" : "there is no .zarray or .zgroup at its root",
    );
  }
  // Checking the documents parses their data types, which load on first use.
  await loadDataTypes();
  const documents = nodes.map((node) => planNode(node, Boolean(options.overwrite))).reverse();
  const removals = options.removeV2Metadata ? nodes.flatMap((node) => node.v2Keys) : [];
  return { nodes, documents, removals };
}

/**
 * Carries out a plan: writes the documents, children before their parents (a reader that
 * finds a group's `zarr.json` finds its members' too), then removes the v2 documents. A write
 * that fails takes back the ones before it (restoring a replaced `zarr.json`), so the
 * hierarchy is as it was; nothing is removed until every document is written.
 */
export async function applyMigration(store: Readable & Writable, plan: MigrationPlan) {
  const done: PlannedDocument[] = [];
  try {
    for (const entry of plan.documents) {
      await store.set(entry.key, encodeJson(entry.document));
      done.push(entry);
    }
  } catch (error) {
    for (const entry of done.reverse()) {
      const previous = entry.node.existingV3;
      await (previous ? store.set(entry.key, previous) : store.delete(entry.key)).catch(() => {});
    }
    throw error;
  }
  for (const key of plan.removals) await store.delete(key);
}
