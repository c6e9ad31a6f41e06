import type { BenchReport, BenchResult } from "./types.mjs";
export function ratiosOf(result: BenchResult): {
  speed: number | undefined;
  memory: number | undefined;
};
export function formatReport(report: BenchReport): string;
export function summaryLine(results: BenchResult[]): string;
