import type { BenchOptions } from "./options.mjs";
import type { Volume } from "./types.mjs";
import type { SpeedStat } from "./versus-python.mjs";

/** The sharded full read, ours against zarrita. */
export interface ShardedResult {
  op: "sharded";
  codec: string;
  shards: number[];
  ours: SpeedStat;
  zarrita: SpeedStat;
}
export function benchSharded(
  volume: Volume,
  dir: string,
  options: BenchOptions,
  settings: { chunks: number[]; fsync: boolean },
  say: (line: string) => void,
): Promise<ShardedResult>;
