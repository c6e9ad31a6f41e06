import type { BenchOptions } from "./options.mjs";
import type { BenchReport, Volume } from "./types.mjs";
export function runSuite(
  options: BenchOptions,
  env: { dataDir: string; log?: (line: string) => void; volume?: Volume },
): Promise<BenchReport>;
