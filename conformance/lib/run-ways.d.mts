import type { ReadLine } from "./outcome.mjs";
import type { Plan } from "./references.mjs";

/** The pool modes: the node options that set each up. */
export const MODES: { default: string[]; forced: string[]; "no pool": string[] };

/** What one way and pool mode read. */
export interface WayRun {
  way: string;
  mode: string;
  kind: string;
  lines: Map<number, ReadLine>;
  stats?: { pool?: string; dispatched?: number; inline?: number; workers?: number };
  processes: number;
  crashes: { i: number; why: string; stderr: string }[];
  stderr: { line: string; count: number }[];
  seconds: number;
}

export function summariseStderr(text: string): { line: string; count: number }[];
export function runWay(options: {
  planFile: string;
  arrayCount: number;
  way: string;
  mode: string;
  workDir: string;
  cwd: string;
}): Promise<WayRun>;
export function runBinSample(options: {
  plan: Plan;
  sample: number[];
  mode: string;
  binFile: string;
  cwd: string;
}): Promise<WayRun>;
export function runFirstUse(options: {
  plan: Plan;
  planFile: string;
  sample: number[];
  way: string;
  mode: string;
  workDir: string;
  binFile: string;
  cwd: string;
}): Promise<WayRun>;
export function inParallel<T>(tasks: (() => Promise<T>)[], limit: number): Promise<T[]>;
