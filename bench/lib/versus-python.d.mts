import type { BenchOptions } from "./options.mjs";
import type { Volume } from "./types.mjs";

/** Speed statistics of one library (null where it cannot do the operation). */
export interface SpeedStat {
  mibPerSec: number;
  seconds: number;
  runs: number[];
}
/** Peak RSS of one full read in a fresh process. */
export interface RssStat {
  peakRssMiB: number;
  outputMiB: number;
}
/** One operation of the three-way comparison. */
export type PythonResult =
  | {
      op: "write" | "read" | "read-into" | "chunk" | "slab";
      codec: string;
      reads?: number;
      ours: SpeedStat;
      zarrita: SpeedStat | null;
      python: SpeedStat;
    }
  | {
      op: "rss";
      codec: string;
      ours: RssStat;
      /** Ours after a first read has started the decode pool (its one-time start not counted). */
      oursWarm: RssStat;
      zarrita: RssStat;
      python: RssStat;
    };
export const V2_COMPRESSORS: Record<string, Record<string, unknown> | null>;
export function benchVersusPython(
  codec: string,
  volume: Volume,
  volumeFile: string,
  root: string,
  options: BenchOptions,
  settings: { chunks: number[]; fsync: boolean },
  say: (line: string) => void,
): Promise<PythonResult[]>;
