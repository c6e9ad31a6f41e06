// The chunk shape checks, in a file of its own so that a module needing only these does not
// load chunk-grid.ts with them (first-load size: packages/zarr/test/bundlers/sizes.test.ts).

import { formatValue } from "@z/errors";
import type { ChunkGrid } from "./chunk-grid.js";
import { ChunkGridError, MetadataError } from "./errors.js";

/**
 * The one shape of every chunk of a grid, for what needs chunks of one shape (Zarr v2
 * metadata, sharding).
 * @param what names the feature and the array, for the error
 * @throws ChunkGridError when the grid's chunks have different shapes
 */
export function uniformChunkShape(grid: ChunkGrid, what: string): readonly number[] {
  if (grid.chunkShape) return grid.chunkShape;
  throw new ChunkGridError(
    `${what} needs chunks of one shape, but the ${grid.name} chunk grid ${formatValue(grid.toJson())} has chunks of different shapes`,
  );
}

/**
 * Checks a chunk shape: one positive integer per dimension, holding fewer than 2^53 elements.
 * Zero-length chunks are refused; they would make every index computation divide by zero.
 */
export function validateChunkShape(chunkShape: unknown, ndim: number, where: string): number[] {
  const shown = () => formatValue(chunkShape, { bigint: "suffix" });
  if (!Array.isArray(chunkShape) || chunkShape.length !== ndim) {
    throw new MetadataError(`${where}: the chunk shape must list ${ndim} extents, got ${shown()}`);
  }
  let elements = 1;
  for (const [axis, extent] of chunkShape.entries()) {
    if (typeof extent !== "number" || !Number.isSafeInteger(extent) || extent < 1) {
      throw new MetadataError(
        `${where}: chunk extents must be positive integers below 2^53, got ${formatValue(extent, { bigint: "suffix" })} at axis ${axis} of ${shown()}`,
      );
    }
    elements *= extent;
  }
  if (elements > Number.MAX_SAFE_INTEGER) {
    throw new MetadataError(
      `${where}: the chunk shape ${shown()} holds more than 2^53 elements, too many to index exactly`,
    );
  }
  return chunkShape as number[];
}
