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
}
export const SIZES: Record<"full" | "small" | "tiny", number[]>;
export const OPS: string[];
export const CODEC_NAMES: string[];
export function parseOptions(
  argv?: string[],
  env?: Record<string, string | undefined>,
): BenchOptions;
