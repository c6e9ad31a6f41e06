import { BasicIndexer, type Indexer, slice } from "@z/indexing";
import { isListable, prefixOf } from "@z/store-core";
import { ValueShapeError } from "../errors.js";
import { DEFAULT_CONCURRENCY, forEachConcurrent } from "../io/concurrency.js";
import type { ZarrArray } from "../nodes/array.js";

/**
 * Checks a new shape for `resize`: the same number of dimensions, non-negative integers.
 * @throws ValueShapeError
 */
export function checkNewShape(shape: readonly number[], ndim: number): number[] {
  if (!Array.isArray(shape) || shape.length !== ndim) {
    throw new ValueShapeError(`resize needs a shape of ${ndim} extents, got [${shape}]`);
  }
  for (const extent of shape) {
    if (!Number.isSafeInteger(extent) || extent < 0) {
      throw new ValueShapeError(`resize needs non-negative integer extents, got [${shape}]`);
    }
  }
  return [...shape];
}

/** Grid coordinates of the stored chunks of an array, from a listing (or undefined when the store cannot list). */
async function storedChunks(array: ZarrArray): Promise<number[][] | undefined> {
  // The store the chunks are written through: a storage transformer's listing, when there is one.
  const store = array.access.stored.store;
  if (!isListable(store)) return undefined;
  const prefix = prefixOf(array.path);
  const encoding = array.metadata.chunkKeyEncoding;
  const found: number[][] = [];
  for await (const key of store.listPrefix(prefix)) {
    const coords = encoding.decode(key.slice(prefix.length), array.ndim);
    if (coords) found.push(coords);
  }
  return found;
}

function* gridOutside(oldGrid: readonly number[], newGrid: readonly number[]): Generator<number[]> {
  if (oldGrid.some((n) => n === 0)) return;
  const index = new Array<number>(oldGrid.length).fill(0);
  for (;;) {
    if (index.some((c, axis) => c >= newGrid[axis])) yield [...index];
    let axis = oldGrid.length - 1;
    for (; axis >= 0; axis--) {
      if (++index[axis] < oldGrid[axis]) break;
      index[axis] = 0;
    }
    if (axis < 0) return;
  }
}

/**
 * Before a shrink: deletes the chunks wholly outside the new shape, and resets to the fill
 * value the parts of the new edge chunks that fall outside it.
 */
export async function shrinkChunks(
  array: ZarrArray,
  next: readonly number[],
  options: { signal?: AbortSignal; concurrency?: number },
): Promise<void> {
  const old = array.shape;
  if (next.every((n, axis) => n >= old[axis])) return;
  const grid = array.metadata.chunkGrid;
  const oldGrid = grid.gridShape(old);
  const newGrid = grid.gridShape(next);
  const concurrency = options.concurrency ?? DEFAULT_CONCURRENCY;
  const listed = await storedChunks(array);
  const outside = listed
    ? listed.filter((coords) => coords.some((c, axis) => c >= newGrid[axis]))
    : gridOutside(oldGrid, newGrid);
  await forEachConcurrent(
    outside,
    concurrency,
    (coords) => array.access.stored.delete(coords, options),
    options.signal,
  );
  // What stays of the old extent beyond the new one, inside the chunks that remain.
  for (let axis = 0; axis < old.length; axis++) {
    const axes = grid.axes;
    if (next[axis] >= old[axis] || axes[axis].start(axes[axis].chunkOf(next[axis])) === next[axis])
      continue;
    const keptEnd = (i: number) =>
      newGrid[i] === 0
        ? 0
        : Math.min(old[i], axes[i].start(newGrid[i] - 1) + axes[i].size(newGrid[i] - 1));
    const selection = old.map((_, i) =>
      i === axis ? slice(next[axis], keptEnd(axis)) : slice(0, keptEnd(i)),
    );
    const indexer: Indexer = new BasicIndexer(selection, old, array.access.chunkShape);
    await resetToFill(array, indexer, options);
  }
}

/**
 * Writes the fill value over a region. Chunks that were never written stay missing (they
 * decode as fill and are deleted, not stored), so there is no need to check first which exist.
 */
async function resetToFill(
  array: ZarrArray,
  indexer: Indexer,
  options: { signal?: AbortSignal; concurrency?: number },
): Promise<void> {
  await array.access.writeParts(
    indexer.parts(),
    { scalar: array.metadata.fillValue },
    options,
    () => {},
  );
}
