import type { ZarrArray } from "@z/zarr";
import { CopyOptionError } from "../copy/copy-option-error.js";
import { UsageError } from "../errors.js";
import type { Output } from "../output.js";
import { formatBytes } from "../rechunk/byte-size.js";
import { chunksForBytes, VARIABLE_ITEM_BYTES } from "../rechunk/chunk-bytes.js";
import type { RechunkArgs } from "../rechunk/rechunk-args.js";
import { planRegions, type RegionPlan } from "../rechunk/region-plan.js";
import { type CopyOptions, type CopySummary, copyCommand } from "./copy.js";

/** Options of `zarr rechunk`: those of `zarr copy` and the rechunk ones. */
export interface RechunkOptions extends CopyOptions, RechunkArgs {}

/** The default of `--max-memory`: 256 MiB. */
export const DEFAULT_MAX_MEMORY = 256 * 2 ** 20;

/**
 * The region plan of one array's rechunk under a memory budget of `maxMemory` for the whole
 * process, half of which goes to the regions in flight (the runtime and memory not yet
 * collected take the rest).
 * @throws CopyOptionError naming `--max-memory` and the array when one region cannot fit
 */
export function rechunkRegions(
  source: ZarrArray,
  target: ZarrArray,
  maxMemory: number,
): RegionPlan {
  const inputs = {
    shape: source.shape,
    itemSize: source.dataType.itemSize || VARIABLE_ITEM_BYTES,
    sourceChunks: source.chunks,
    writeUnit: target.shards ?? target.chunks,
    budget: Math.floor(maxMemory / 2),
  };
  const plan = planRegions(inputs);
  if (plan === undefined) {
    throw new CopyOptionError(
      `--max-memory ${formatBytes(maxMemory)}`,
      source.path,
      `one destination ${target.shards ? "shard" : "chunk"} [${inputs.writeUnit}] with one source chunk [${inputs.sourceChunks}] needs more than half of it; raise --max-memory or choose smaller chunks`,
    );
  }
  return plan;
}

/**
 * `zarr rechunk <src> <dst>`: `zarr copy` with new chunks (one shape, or a size in bytes that
 * each array's shape is fitted to), shards or codecs, whose arrays are copied in regions
 * planned to keep memory within `--max-memory` (see {@link rechunkRegions}).
 * @throws UsageError for `--chunks` with `--chunk-bytes`; what `zarr copy` throws
 */
export async function rechunkCommand(
  output: Output,
  source: string,
  destination: string,
  options: RechunkOptions,
): Promise<CopySummary> {
  const { chunkBytes, maxMemory = DEFAULT_MAX_MEMORY } = options;
  if (chunkBytes !== undefined && options.chunks !== undefined)
    throw new UsageError("--chunks and --chunk-bytes cannot be given together", "rechunk");
  return copyCommand(output, source, destination, options, {
    verb: "rechunk",
    changesFor: (array) =>
      chunkBytes === undefined
        ? options
        : { ...options, chunks: chunksForBytes(array.shape, array.dataType.itemSize, chunkBytes) },
    copyRegions: (array, target) => {
      const { regionChunks, concurrency } = rechunkRegions(array, target, maxMemory);
      return { regionChunks, concurrency };
    },
  });
}
