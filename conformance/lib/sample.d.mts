import type { Plan, PlannedArray } from "./references.mjs";

export function featureKeys(entry: PlannedArray): string[];
export function coveringSample(plan: Plan, eligible?: (entry: PlannedArray) => boolean): number[];
