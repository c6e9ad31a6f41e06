/** The options of a run (see options.mjs). */
export interface BenchOptions {
  size: "full" | "small" | "tiny";
  shape: number[];
  chunks: number[];
  codecs: string[];
  ops: string[];
  repeats: number;
  chunkReads: number;
  fsync: boolean;
  seed: number;
  workers: number | "auto";
  /** Edge of the cubic arrays of `large` and `browser`. */
  edge: number;
  /** Node.js major versions to run in turn (empty: the running Node only). */
  nodes: number[];
  /** Where the JSON results go (undefined: bench/data/results.json). */
  results: string | undefined;
}
export const SIZES: Record<"full" | "small" | "tiny", number[]>;
export const OPS: string[];
export const DEFAULT_OPS: string[];
export const EDGES: Record<"full" | "small" | "tiny", number>;
export const CODEC_NAMES: string[];
export function parseOptions(
  argv?: string[],
  env?: Record<string, string | undefined>,
): BenchOptions;
