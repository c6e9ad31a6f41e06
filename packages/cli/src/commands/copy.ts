import { rmdir, stat } from "node:fs/promises";
import {
  type CopiedNodes,
  type CopyNodeOptions,
  copyNode,
  open,
  planNodeCopy,
  type ZarrArray,
} from "@z/zarr";
import { countingWrites, type WriteCounts } from "../copy/counting-store.js";
import { type CopyChanges, planArray } from "../copy/plan.js";
import { UsageError } from "../errors.js";
import { isIcechunkLocation } from "../icechunk-ref.js";
import { completeLocation, openLocation } from "../location.js";
import type { Output } from "../output.js";
import { ProgressBar } from "../progress.js";
import { COMPRESSOR_CHOICES, isCompressorChoice } from "./copy-codecs.js";

/** Options of `zarr copy`. */
export interface CopyOptions extends CopyChanges {
  /** The node to copy (default the root); it lands at the same path in the destination. */
  path?: string;
  /** Replace what exists at the destination path (its whole subtree). */
  overwrite?: boolean;
  /** Destination chunks (or shards) written at once (default 4). */
  concurrency?: number;
  /** Print the summary as one JSON object on standard output. */
  json?: boolean;
  /** The commit message of an Icechunk destination (`icechunk+…`), committed once at the end. */
  message?: string;
}

/** What a copy did. */
export interface CopySummary extends WriteCounts {
  /** Arrays copied. */
  arrays: number;
  /** Groups copied. */
  groups: number;
  /** Groups given consolidated metadata at the destination (as their sources had). */
  consolidated: number;
}

function checkOptions(options: CopyOptions): void {
  if (options.format !== undefined && options.format !== 2 && options.format !== 3)
    throw new UsageError(`--format must be 2 or 3, got ${options.format}`);
  if (options.compressor !== undefined && !isCompressorChoice(options.compressor)) {
    throw new UsageError(
      `--compressor must be one of ${COMPRESSOR_CHOICES.join(", ")}, got ${options.compressor}`,
    );
  }
  const { concurrency } = options;
  if (concurrency !== undefined && (!Number.isSafeInteger(concurrency) || concurrency < 1))
    throw new UsageError(`concurrency must be a positive integer, got ${concurrency}`);
}

/** A destination that is a local folder not there yet (which the copy creates), or undefined. */
async function newFolder(destination: string): Promise<string | undefined> {
  if (/^[a-z][a-z0-9+.-]+:/i.test(destination) || /\.zip$/i.test(destination)) return undefined;
  const exists = await stat(destination).then(
    () => true,
    () => false,
  );
  return exists ? undefined : destination;
}

/**
 * How a command built on `zarr copy` changes it (`zarr rechunk`): each array's own changes,
 * and how its elements are copied.
 */
export interface CopyTuning {
  /** The verb of the progress bar and the summary (default "copy"). */
  verb?: "copy" | "rechunk";
  /** The changes for one array (default the options' own). */
  changesFor?: (array: ZarrArray) => CopyChanges;
  /** How each array's elements are copied (see the library's `copyNode`). */
  copyRegions?: CopyNodeOptions["copyRegions"];
  /** Called after each region of an array is copied. */
  onRegion?: (source: ZarrArray) => void;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** The summary line `zarr copy` ends with. */
export function summaryLine(
  summary: CopySummary,
  source: string,
  destination: string,
  verb: CopyTuning["verb"] = "copy",
): string {
  const nodes = summary.arrays + summary.groups;
  return (
    `${verb === "copy" ? "copied" : "rechunked"} ${plural(nodes, "node")} (${plural(summary.arrays, "array")}, ${plural(summary.groups, "group")}), ` +
    `${plural(summary.chunks, "chunk")}, ${plural(summary.bytes, "byte")} from ${source} to ${destination}`
  );
}

/**
 * `zarr copy <src> <dst>`: rewrites an array or a whole hierarchy (attributes and consolidated
 * metadata included) into another location, optionally converting the format, compressor and
 * chunking, through the library's `copyNode` with its copy defaults. Every option is checked
 * against every source array before anything is written; then each array is copied one
 * destination chunk (or shard) per task, so no stored object is written by two tasks, and the
 * metadata is written last. A copy that fails takes back what it wrote (and a folder it
 * created), so the destination is as it was and a rerun can start afresh; the error names the
 * array whose copy failed. Ends with a summary line on standard error, or, with `json`, one
 * JSON object on standard output.
 * @throws CopyOptionError (a UsageError) naming the option and the node; the store and
 *   codec errors of the source and destination
 */
export async function copyCommand(
  output: Output,
  source: string,
  destination: string,
  options: CopyOptions,
  tuning: CopyTuning = {},
): Promise<CopySummary> {
  checkOptions(options);
  const verb = tuning.verb ?? "copy";
  const from = await openLocation(source);
  const root = await open(from, { path: options.path });
  let bar: ProgressBar | undefined;
  const copyOptions: CopyNodeOptions = {
    zarrFormat: options.format,
    arrayOptions: (array) => planArray(array, tuning.changesFor?.(array) ?? options),
    copyRegions: tuning.copyRegions,
    overwrite: options.overwrite,
    concurrency: options.concurrency ?? 4,
    onArrayStart: (array) => {
      bar = new ProgressBar(output, `${verb} /${array.path}`);
    },
    onProgress: (array, { done, total }) => {
      tuning.onRegion?.(array);
      bar?.update(done, total);
    },
    onArrayEnd: () => {
      bar?.finish();
      bar = undefined;
    },
  };
  // Every option is checked against every array before the destination is even opened.
  const plan = await planNodeCopy(root, copyOptions);
  const counts: WriteCounts = { chunks: 0, bytes: 0 };
  const folder = await newFolder(destination);
  if (options.message !== undefined && !isIcechunkLocation(destination))
    throw new UsageError(
      `--message is the commit message of an icechunk+ destination, not ${destination}`,
    );
  const location = await openLocation(destination, {
    create: true,
    message: options.message ?? `zarr ${verb} ${source}`,
  });
  let copied: CopiedNodes;
  try {
    // All or nothing: a copy that fails has taken back what it wrote.
    copied = await copyNode(plan, countingWrites(location, counts), copyOptions);
  } catch (error) {
    bar?.finish();
    // A folder this command created goes too, if the copy left it empty (rmdir refuses otherwise).
    if (folder) await rmdir(folder).catch(() => {});
    throw error;
  }
  const snapshot = await completeLocation(location);
  const summary: CopySummary = {
    arrays: copied.arrays.length,
    groups: copied.groups.length,
    consolidated: copied.consolidated.length,
    ...counts,
  };
  if (options.json) output.out(`${JSON.stringify(summary)}\n`);
  output.err(`${summaryLine(summary, source, destination, verb)}\n`);
  if (snapshot !== undefined) output.err(`committed snapshot ${snapshot}\n`);
  return summary;
}
