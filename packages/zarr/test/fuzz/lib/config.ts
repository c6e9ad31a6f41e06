import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { repositoryRoot } from "@z/test-utils";

/**
 * The fuzz run's settings, from the environment (set by `pnpm fuzz`, see tools/fuzz/run.mjs).
 * Without any, the suite runs its CI share: a fixed seed and the default case counts.
 */
export interface FuzzConfig {
  /** Total cases over all targets, shared by their weights; undefined: the CI defaults. */
  totalRuns: number | undefined;
  /** The seed; undefined: a fixed seed per target (CI) or a fresh one (`pnpm fuzz`). */
  seed: number | undefined;
  /** A failing-case file to replay (only its target runs). */
  replay: string | undefined;
  /** Let fast-check shrink a replayed failure to a minimal one. */
  shrink: boolean;
  /** Only targets whose name contains this. */
  only: string | undefined;
  /** A case that takes longer than this fails (ms). */
  timeoutMs: number;
  /** A case that grows RSS by more than this fails (bytes). */
  rssLimitBytes: number;
  /** Where failing cases are written. */
  outDir: string;
  /** A file each target appends its summary to (one JSON line), for `pnpm fuzz`. */
  summaryFile: string | undefined;
  /**
   * Exact case counts by target (`FUZZ_PLAN`, JSON): only these targets run. `pnpm fuzz` uses
   * it to carry on with the targets a watchdog kill cut short.
   */
  plan: Record<string, number> | undefined;
  /** Print every case and how it ended (`FUZZ_VERBOSE=1`). */
  verbose: boolean;
}

function numberFrom(name: string): number | undefined {
  const text = process.env[name];
  if (text === undefined || text === "") return undefined;
  const value = Number(text);
  if (!Number.isFinite(value) || value < 0)
    throw new Error(`${name} must be a number, got ${text}`);
  return value;
}

/** Reads the configuration from the environment. */
export function fuzzConfig(): FuzzConfig {
  return {
    totalRuns: numberFrom("FUZZ_RUNS"),
    seed: numberFrom("FUZZ_SEED"),
    replay: process.env.FUZZ_REPLAY || undefined,
    shrink: process.env.FUZZ_SHRINK === "1",
    only: process.env.FUZZ_ONLY || undefined,
    timeoutMs: numberFrom("FUZZ_TIMEOUT_MS") ?? 2000,
    rssLimitBytes: (numberFrom("FUZZ_RSS_MB") ?? 256) * 2 ** 20,
    outDir: process.env.FUZZ_OUT || path.join(repositoryRoot, ".tmp", "fuzz-failures"),
    summaryFile: process.env.FUZZ_SUMMARY || undefined,
    plan: process.env.FUZZ_PLAN ? JSON.parse(process.env.FUZZ_PLAN) : undefined,
    verbose: process.env.FUZZ_VERBOSE === "1",
  };
}

/**
 * The CI case count of every target (they add up to the suite's share), which `FUZZ_RUNS`
 * scales: a target gets `FUZZ_RUNS * ciRuns / total`. Kept in `ci-runs.json`, which
 * `pnpm fuzz` reads too.
 */
export const CI_RUNS: Record<string, number> = JSON.parse(
  readFileSync(
    path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "ci-runs.json"),
    "utf8",
  ),
);

/** How many cases a target runs under this configuration. */
export function runsFor(target: string, config: FuzzConfig): number {
  if (config.plan) return config.plan[target] ?? 0;
  const base = CI_RUNS[target];
  if (base === undefined) throw new Error(`No case count for fuzz target ${target}`);
  if (config.totalRuns === undefined) return base;
  const total = Object.values(CI_RUNS).reduce((a, b) => a + b, 0);
  return Math.max(1, Math.round((config.totalRuns * base) / total));
}
