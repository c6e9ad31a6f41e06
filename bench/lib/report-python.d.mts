import type { ShardedResult } from "./sharded.mjs";
import type { PythonResult } from "./versus-python.mjs";
export function formatPythonReport(report: {
  results: PythonResult[];
  versions?: { zarr: string; numcodecs: string };
  workers: number | "auto";
  missing?: string;
}): string;
export function formatShardedReport(result: ShardedResult): string;
export function table(rows: string[][]): string;
