import {
  encodeJson,
  isListable,
  isWritable,
  type JsonObject,
  loadDataTypes,
  parseArrayMetadataV3,
  parseGroupMetadataV3,
  type Readable,
  stringifyJson,
  type Writable,
} from "@z/zarr";
import { UsageError } from "../errors.js";
import { openLocation } from "../location.js";
import { MigrationError } from "../migrate/migration-error.js";
import { findV2Nodes, type V2Node } from "../migrate/v2-nodes.js";
import { migrateArrayDocument, migrateGroupDocument } from "../migrate/v3-documents.js";
import type { Output } from "../output.js";

/** Options of `zarr migrate`. */
export interface MigrateOptions {
  /** Print the documents it would write (and the keys it would remove) and change nothing. */
  dryRun?: boolean;
  /** Remove each node's v2 metadata (`.zarray`, `.zgroup`, `.zattrs`, `.zmetadata`) once all the v3 metadata is written. */
  removeV2Metadata?: boolean;
  /** Replace a `zarr.json` that is already there (else such a node is an error). */
  overwrite?: boolean;
  /** Print the summary (and, with `dryRun`, the documents) as one JSON object on standard output. */
  json?: boolean;
}

/** What a migration did (or, with `dryRun`, would do). */
export interface MigrateSummary {
  /** Arrays given v3 metadata. */
  arrays: number;
  /** Groups given v3 metadata. */
  groups: number;
  /** The `zarr.json` keys written, children before their parents. */
  written: string[];
  /** The v2 metadata keys removed. */
  removed: string[];
  /** Whether nothing was changed. */
  dry_run: boolean;
}

/** One `zarr.json` to write. */
interface PlannedDocument {
  node: V2Node;
  key: string;
  document: JsonObject;
}

const prefixOf = (path: string) => (path === "" ? "" : `${path}/`);

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
 * Writes the documents, deepest first so a reader that finds a group's `zarr.json` finds its
 * members' too. A write that fails takes back the ones before it (restoring a replaced
 * `zarr.json`), so the hierarchy is as it was.
 */
async function writeDocuments(store: Readable & Writable, plan: PlannedDocument[]) {
  const done: PlannedDocument[] = [];
  try {
    for (const entry of plan) {
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
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** The line `zarr migrate` ends with on standard error. */
function summaryLine(summary: MigrateSummary, location: string): string {
  const nodes = `${plural(summary.arrays + summary.groups, "node")} (${plural(summary.arrays, "array")}, ${plural(summary.groups, "group")})`;
  const v2 =
    summary.removed.length > 0
      ? `${summary.dry_run ? "would remove" : "removed"} ${plural(summary.removed.length, "v2 metadata document")}`
      : "the v2 metadata stays (--remove-v2-metadata removes it)";
  return summary.dry_run
    ? `dry run: would migrate ${nodes} in ${location} to Zarr v3, writing ${plural(summary.written.length, "zarr.json document")}; ${v2}; nothing was changed`
    : `migrated ${nodes} in ${location} to Zarr v3: wrote ${plural(summary.written.length, "zarr.json document")}; ${v2}`;
}

/**
 * `zarr migrate <location>`: gives every node of a v2 hierarchy the v3 metadata zarr-python
 * 3.1's `zarr migrate v3` writes (see {@link migrateArrayDocument}), in place, without moving
 * or rewriting a chunk. Every node is converted and checked before anything is written, so an
 * array that cannot be migrated (an object data type, a codec without a v3 equivalent) stops
 * the migration with an error naming it and nothing changed. The v2 documents stay, as
 * zarr-python leaves them, unless `removeV2Metadata`; they are removed only after every
 * `zarr.json` is written.
 * @throws MigrationError naming the node; UsageError for a location that is not a v2
 *   hierarchy, cannot be listed, or (unless `dryRun`) cannot be written
 */
export async function migrateCommand(
  output: Output,
  location: string,
  options: MigrateOptions = {},
): Promise<MigrateSummary> {
  const dryRun = Boolean(options.dryRun);
  const store = await openLocation(location);
  if (!isListable(store))
    throw new UsageError(`Cannot migrate ${location}: its keys cannot be listed`, "migrate");
  const nodes = await findV2Nodes(store);
  if (nodes.length === 0) {
    const v3 = await store.get("zarr.json");
    throw new MigrationError(
      "",
      v3 ? "it is already a Zarr v3 hierarchy" : `no .zarray or .zgroup at the root of ${location}`,
    );
  }
  // Checking the documents parses their data types, which load on first use.
  await loadDataTypes();
  // Deepest first: children are written before their parents.
  const plan = nodes.map((node) => planNode(node, Boolean(options.overwrite))).reverse();
  const removed = options.removeV2Metadata ? nodes.flatMap((node) => node.v2Keys) : [];
  const summary: MigrateSummary = {
    arrays: nodes.filter((node) => node.zarray !== undefined).length,
    groups: nodes.filter((node) => node.zarray === undefined).length,
    written: plan.map((entry) => entry.key),
    removed,
    dry_run: dryRun,
  };
  if (dryRun) {
    if (options.json) {
      const documents = Object.fromEntries(plan.map((entry) => [entry.key, entry.document]));
      output.out(`${stringifyJson({ ...summary, documents })}\n`);
    } else {
      for (const entry of plan)
        output.out(`would write ${entry.key}:\n${stringifyJson(entry.document)}\n`);
      for (const key of removed) output.out(`would remove ${key}\n`);
    }
    output.err(`${summaryLine(summary, location)}\n`);
    return summary;
  }
  if (!isWritable(store))
    throw new UsageError(`Cannot migrate ${location}: it is read-only`, "migrate");
  await writeDocuments(store, plan);
  for (const key of removed) await store.delete(key);
  if (options.json) output.out(`${JSON.stringify(summary)}\n`);
  output.err(`${summaryLine(summary, location)}\n`);
  return summary;
}
