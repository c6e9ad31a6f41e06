import { openIcechunk } from "@z/zarr";
import { UsageError } from "../errors.js";
import { isIcechunkLocation } from "../icechunk-ref.js";
import type { Output } from "../output.js";

/** Options of `zarr log`. */
export interface LogOptions {
  /** The branch, tag or snapshot whose history is listed (default `main`). */
  ref?: string;
  /** Print one JSON array instead of the lines. */
  json?: boolean;
}

/** One snapshot of `zarr log --json`. */
export interface LogEntry {
  /** The snapshot id. */
  id: string;
  /** When it was committed (ISO 8601, UTC). */
  time: string;
  /** Its commit message. */
  message: string;
}

/**
 * `zarr log <icechunk location>`: the snapshots of a branch (or of a tag or snapshot, with
 * `ref`), newest first, back to the repository's first: one line each of id, time and message,
 * or with `json` one JSON array of {@link LogEntry}.
 * @throws UsageError for a location without `icechunk+`; the Icechunk errors of the repository
 */
export async function logCommand(
  output: Output,
  location: string,
  options: LogOptions = {},
): Promise<LogEntry[]> {
  if (!isIcechunkLocation(location))
    throw new UsageError(
      `zarr log lists an Icechunk repository's history: write icechunk+ before its location (icechunk+${location})`,
      "log",
    );
  const { repository, session } = await openIcechunk(location, { ref: options.ref });
  const entries = (await repository.ancestry(session.snapshotId)).map(
    (s): LogEntry => ({ id: s.id, time: s.flushedAt.toISOString(), message: s.message }),
  );
  if (options.json) output.out(`${JSON.stringify(entries, null, 2)}\n`);
  else for (const e of entries) output.out(`${e.id}  ${e.time}  ${e.message}\n`);
  return entries;
}
