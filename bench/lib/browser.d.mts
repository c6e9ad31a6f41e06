import type { LargeResult } from "./large.mjs";
import type { BenchOptions } from "./options.mjs";

/** A run of the browser bench. */
export interface BrowserReport {
  edge: number;
  bytes: number;
  chromium: string;
  /** Whether the page was cross-origin isolated (the server sends COOP and COEP). */
  isolated: boolean;
  workers: string;
  pool: { workers: number; dispatched: number };
  zarritaConcurrency: number;
  /** Each array's numbers, and whether our reads of it returned results in shared memory. */
  results: (LargeResult & { sharedResult: boolean })[];
}

export const CHROMIUM_PATH: string;
export const ZARRITA_CONCURRENCY: number;
export function chromiumAvailable(): boolean;
export function buildPage(outDir: string, options?: { fromSource?: boolean }): Promise<void>;
export function benchBrowser(
  options: BenchOptions,
  env: { dataDir: string; say: (line: string) => void; fromSource?: boolean },
): Promise<BrowserReport>;
