import type { ZarrArray } from "@z/zarr";
import { CopyOptionError } from "../copy/copy-option-error.js";
import { UsageError } from "../errors.js";
import type { Output } from "../output.js";
import { formatBytes } from "../rechunk/byte-size.js";
import { chunksForBytes, VARIABLE_ITEM_BYTES } from "../rechunk/chunk-bytes.js";
import { MemoryRelease } from "../rechunk/memory-release.js";
import type { RechunkArgs } from "../rechunk/rechunk-args.js";
import { planRegions, type RegionPlan, regionCost } from "../rechunk/region-plan.js";
import { type CopyOptions, type CopySummary, copyCommand } from "./copy.js";

/** Options of `zarr rechunk`: those of `zarr copy` and the rechunk ones. */
export interface RechunkOptions extends CopyOptions, RechunkArgs {}

/** The default of `--max-memory`: 256 MiB. */
export const DEFAULT_MAX_MEMORY = 256 * 2 ** 20;

/** What `--max-memory` sets aside for the runtime itself (Node, the modules, the codecs). */
export const RUNTIME_BYTES = 96 * 2 ** 20;

/**
 * The memory the regions in flight may take under `--max-memory`: half of what the runtime
 * leaves, the other half left to the allocator (memory freed but not yet returned).
 */
export function regionBudget(maxMemory: number): number {
  return Math.max(0, Math.floor((maxMemory - RUNTIME_BYTES) / 2));
}

/**
 * The region plan of one array's rechunk under a memory budget of `maxMemory` for the whole
 * process (see {@link regionBudget}).
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
    budget: regionBudget(maxMemory),
  };
  const plan = planRegions(inputs);
  if (plan === undefined) {
    throw new CopyOptionError(
      `--max-memory ${formatBytes(maxMemory)}`,
      source.path,
      `one destination ${target.shards ? "shard" : "chunk"} [${inputs.writeUnit}] with one source chunk [${inputs.sourceChunks}] needs about ${formatBytes(
        regionCost(
          inputs,
          inputs.writeUnit.map(() => 1),
        ),
      )}, more than the ${formatBytes(inputs.budget)} it leaves for regions; raise --max-memory or choose smaller chunks`,
    );
  }
  return plan;
}

/**
 * `zarr rechunk <src> <dst>`: `zarr copy` with new chunks (one shape, or a size in bytes that
 * each array's shape is fitted to), shards or codecs, whose arrays are copied in regions
 * planned to keep memory within `--max-memory` (see `rechunkRegions`).
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
  // A full collection once regions worth a quarter of the budget are done.
  const release = new MemoryRelease(Math.floor(regionBudget(maxMemory) / 4));
  const regionBytes = new Map<string, number>();
  return copyCommand(output, source, destination, options, {
    verb: "rechunk",
    changesFor: (array) =>
      chunkBytes === undefined
        ? options
        : { ...options, chunks: chunksForBytes(array.shape, array.dataType.itemSize, chunkBytes) },
    copyRegions: (array, target) => {
      const plan = rechunkRegions(array, target, maxMemory);
      regionBytes.set(array.path, plan.regionBytes);
      return { regionChunks: plan.regionChunks, concurrency: plan.concurrency };
    },
    onRegion: (array) => release.regionDone(regionBytes.get(array.path) ?? 0),
  });
}
