import type { BenchOptions } from "./options.mjs";

/** One library's full reads of a large array. */
export interface LargeStat {
  seconds: number;
  gbPerSec: number;
  peakMiB: number | undefined;
  runs: number[];
}

/** One array of the large case; a library is null where it cannot read it. */
export interface LargeResult {
  op: "large" | "browser";
  variant: "zstd" | "sharded";
  chunks: number[];
  shards: number[] | undefined;
  storedBytes: number;
  ours: LargeStat | null;
  zarrita: LargeStat | null;
  python?: LargeStat | null;
}

/** A run of the large case. */
export interface LargeReport {
  edge: number;
  shape: number[];
  bytes: number;
  outputMiB: number;
  results: LargeResult[];
}

export const LARGE_VARIANTS: ("zstd" | "sharded")[];
export function largeStat(
  runs: { seconds: number; peakMiB?: number }[],
  bytes: number,
): LargeStat | null;
export function benchLarge(
  options: BenchOptions,
  env: { dataDir: string; say: (line: string) => void; python?: boolean },
): Promise<LargeReport>;
