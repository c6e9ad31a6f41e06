import type { PlannedArray } from "./references.mjs";

/** What one read gave, as the results files hold it. */
export interface ReadLine {
  i: number;
  id: string;
  status: "equal" | "differs" | "read" | "error" | "not applicable";
  matched?: string[];
  differences?: string[];
  contract?: string[];
  detail?: string;
  direct?: boolean;
  error?: { name: string; message: string; typed: boolean };
  ms?: number;
}

export function valuesOf(
  dataType: unknown,
  chunk: { data: unknown; shape: number[]; stride?: number[] },
): { values: unknown[]; direct: boolean };
export function cliResult(
  code: number,
  stdout: string,
  stderr: string,
): { shape: number[]; values: unknown[]; direct: false; contract: string[] };
export function describeError(error: unknown): { name: string; message: string; typed: boolean };
export function compareWithReferences(
  entry: PlannedArray,
  ours: { shape: number[]; values: unknown[] },
): { matched: string[]; differences: string[] };
