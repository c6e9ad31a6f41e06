import type { ReadLine } from "./outcome.mjs";
import type { Plan, PlannedArray } from "./references.mjs";
import type { WayRun } from "./run-ways.mjs";

export interface Verdict {
  verdict: "equal" | "read" | "refused" | "not applicable" | "failed";
  cause?: string;
  reason?: string;
}
export interface Failure {
  id: string;
  cause: string;
  reason: string;
}
export interface RunCounts {
  counts: Record<"arrays" | "equal" | "read" | "refused" | "not applicable" | "failed", number>;
  reasons: Map<string, number>;
  failures: Failure[];
}
export interface FailureGroup {
  cause: string;
  example: string;
  arrays: Set<string>;
  runs: Set<string>;
}

export function judge(entry: PlannedArray, line: ReadLine, way: string): Verdict;
export function countRun(plan: Plan, run: WayRun): RunCounts;
export function groupFailures(runs: { label: string; failures: Failure[] }[]): FailureGroup[];
export function describeGroup(group: FailureGroup, maxArrays?: number): string[];
