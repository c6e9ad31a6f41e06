/** One library's numbers for one strings operation. */
export interface StringsStat {
  seconds: number;
  mStringsPerSec: number;
  mibPerSec: number;
  peakMiB: number;
}

/** One case (ASCII or mixed strings) and operation; zarrita is null where it has no equivalent. */
export interface StringsResult {
  case: string;
  op: string;
  bytes: number;
  ours: StringsStat;
  zarrita: StringsStat | null;
}

/** A whole strings benchmark run. */
export interface StringsReport {
  config: { count: number; repeats: number; seed: number; node: string };
  results: StringsResult[];
  notes: string[];
}

export function makeStrings(count: number, seed: number, unicode: boolean): string[];
export function benchStrings(options?: {
  count?: number;
  repeats?: number;
  seed?: number;
  log?: (line: string) => void;
}): Promise<StringsReport>;
export function formatStringsReport(report: StringsReport): string;
