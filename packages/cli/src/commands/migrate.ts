import { isListable, isWritable, stringifyJson } from "@z/zarr";
import { UsageError } from "../errors.js";
import { openLocation } from "../location.js";
import { applyMigration, planMigration } from "../migrate/migration-plan.js";
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
 * 3.1's `zarr migrate v3` writes (see `migrateArrayDocument`), in place, without moving
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
  const plan = await planMigration(store, options);
  const summary: MigrateSummary = {
    arrays: plan.nodes.filter((node) => node.zarray !== undefined).length,
    groups: plan.nodes.filter((node) => node.zarray === undefined).length,
    written: plan.documents.map((entry) => entry.key),
    removed: plan.removals,
    dry_run: dryRun,
  };
  if (dryRun) {
    if (options.json) {
      const documents = Object.fromEntries(plan.documents.map((e) => [e.key, e.document]));
      output.out(`${stringifyJson({ ...summary, documents })}\n`);
    } else {
      for (const entry of plan.documents)
        output.out(`would write ${entry.key}:\n${stringifyJson(entry.document)}\n`);
      for (const key of plan.removals) output.out(`would remove ${key}\n`);
    }
    output.err(`${summaryLine(summary, location)}\n`);
    return summary;
  }
  if (!isWritable(store))
    throw new UsageError(`Cannot migrate ${location}: it is read-only`, "migrate");
  await applyMigration(store, plan);
  if (options.json) output.out(`${JSON.stringify(summary)}\n`);
  output.err(`${summaryLine(summary, location)}\n`);
  return summary;
}
