import { UsageError } from "../errors.js";

/** What `zarr info` takes for statistics. */
export interface StatsArgs {
  /** `--stats`: read the array and summarise its values. */
  stats?: boolean;
  /** `--bins N`: histogram bins. */
  bins?: number;
}

/**
 * The statistics options among the command line's values and flags.
 * @throws UsageError for a bin count that is not a positive integer, or `--bins` without `--stats`
 */
export function statsOptions(
  values: Record<string, string>,
  flags: Record<string, number>,
): StatsArgs {
  const stats = Boolean(flags.stats);
  if (values.bins === undefined) return { stats };
  if (!stats) throw new UsageError("--bins needs --stats", "info");
  const bins = Number(values.bins);
  if (!Number.isSafeInteger(bins) || bins < 1 || bins > 10_000)
    throw new UsageError(`--bins must be an integer from 1 to 10000, got ${values.bins}`, "info");
  return { stats, bins };
}
