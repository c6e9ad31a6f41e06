import { type ArrayMetadata, V2ChunkKeyEncoding } from "@z/metadata";
import { product } from "@z/ndarray";
import {
  isListable,
  prefixOf,
  type Readable,
  throwIfAborted,
  UnsupportedOperationError,
} from "@z/store-core";
import { shardingOf } from "../create/sharding-config.js";

// Loaded by `nchunksInitialized` on first use (see lazy-features.ts): counting needs a listing,
// which reading never does.

/**
 * The number of chunks stored for an array, counted as zarr-python's `nchunks_initialized`
 * does: the stored objects under the array's prefix whose keys are keys of the grid, each
 * shard counting for the inner chunks it holds (however many of them it actually stores).
 * @throws UnsupportedOperationError when the store cannot list keys
 */
export async function countStoredChunks(
  store: Readable,
  path: string,
  metadata: ArrayMetadata,
  signal?: AbortSignal,
): Promise<number> {
  if (!isListable(store)) {
    throw new UnsupportedOperationError(
      `Cannot count the stored chunks of /${path}: the store cannot list keys`,
    );
  }
  const { shape, chunkGrid, chunkKeyEncoding } = metadata;
  const grid = chunkGrid.gridShape(shape);
  const inner = shardingOf(metadata)?.chunkShape;
  // v2 arrays without `dimension_separator` may have been written with `/` keys by old writers.
  const legacy =
    metadata.v2 && metadata.v2.dimensionSeparator === undefined
      ? new V2ChunkKeyEncoding("/")
      : undefined;
  const prefix = prefixOf(path);
  let count = 0;
  for await (const key of store.listPrefix(prefix)) {
    throwIfAborted(signal);
    const relative = key.slice(prefix.length);
    const coords =
      chunkKeyEncoding.decode(relative, shape.length) ?? legacy?.decode(relative, shape.length);
    if (!coords || coords.some((c, i) => c >= grid[i])) continue;
    if (!inner) count += 1;
    else {
      const shard = chunkGrid.chunkShapeAt(coords);
      count += product(shard.map((n, i) => Math.ceil(n / inner[i])));
    }
  }
  return count;
}
