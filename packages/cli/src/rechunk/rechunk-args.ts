import { UsageError } from "../errors.js";
import { parseByteSize } from "./byte-size.js";

/** What `zarr rechunk` takes beyond the options it shares with `zarr copy`. */
export interface RechunkArgs {
  /** `--chunk-bytes`: a chunk size in bytes, each array's chunk shape chosen to fit it. */
  chunkBytes?: number;
  /** `--shards`: the shard shape (v3). */
  shards?: number[];
  /** `--max-memory`: the memory budget in bytes. */
  maxMemory?: number;
}

/**
 * A shape option (`--chunks 10,20`) as a list of positive integers.
 * @throws UsageError naming the option for anything else
 */
export function parseShape(option: string, value: string | undefined): number[] | undefined {
  if (value === undefined) return undefined;
  const shape = value.split(",").map((part) => Number(part.trim()));
  if (shape.some((n) => !Number.isSafeInteger(n) || n < 1)) {
    throw new UsageError(`--${option} must be positive integers separated by commas, got ${value}`);
  }
  return shape;
}

/** The rechunk options among the command line's values. */
export function rechunkOptions(values: Record<string, string>): RechunkArgs {
  const size = (option: string) =>
    values[option] === undefined ? undefined : parseByteSize(option, values[option]);
  return {
    chunkBytes: size("chunk-bytes"),
    shards: parseShape("shards", values.shards),
    maxMemory: size("max-memory"),
  };
}
