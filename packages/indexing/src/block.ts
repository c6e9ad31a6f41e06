import { BasicIndexer } from "./basic-indexer.js";
import { type ChunkLayout, chunkAxes } from "./chunk-layout.js";
import { BoundsError, SelectionError } from "./errors.js";
import type { SelectionItem } from "./selection.js";
import { isSlice, type Slice, slice } from "./slice.js";
import { resolveSlice } from "./slice-resolve.js";

/** One item of a block selection: a chunk index (negative counts from the end), a slice of chunk indices with step 1, or `null`. */
export type BlockItem = number | Slice | null;

/**
 * The indexer of a block selection (zarr-python's `get_block_selection`, `arr.blocks[...]`):
 * items select whole chunks by their grid index, and the result covers those chunks (clipped
 * at the array's edge). An integer keeps its axis, unlike a basic selection.
 * `blocks` is the grid the block indices count (the metadata's chunk grid: shards for a
 * sharded array); `layout` the grid reads and writes are projected onto. Either may be a
 * plain chunk shape or per-axis {@link ChunkLayout} boundaries (a `rectilinear` grid).
 * @throws BoundsError for a chunk index outside the grid; SelectionError for a step other than 1
 */
export function blockIndexer(
  selection: readonly BlockItem[] | BlockItem,
  arrayShape: readonly number[],
  blocks: ChunkLayout,
  layout: ChunkLayout = blocks,
): BasicIndexer {
  const blockAxes = chunkAxes(blocks);
  const items = Array.isArray(selection) ? selection : [selection as BlockItem];
  if (items.length > arrayShape.length) {
    throw new SelectionError(
      `Too many indices: the array has ${arrayShape.length} dimensions but the block selection has ${items.length}`,
    );
  }
  const basic: SelectionItem[] = arrayShape.map((length, axis) => {
    const grid = blockAxes[axis];
    const blocks = grid.count(length);
    const item = items[axis] ?? null;
    let first: number;
    let last: number;
    if (item === null) {
      first = 0;
      last = blocks;
    } else if (typeof item === "number") {
      if (!Number.isInteger(item))
        throw new SelectionError(`Axis ${axis}: block index ${item} is not an integer`);
      first = item < 0 ? item + blocks : item;
      if (first < 0 || first >= blocks) {
        throw new BoundsError(
          `Block index ${item} is out of bounds for axis ${axis} with ${blocks} blocks`,
        );
      }
      last = first + 1;
    } else if (isSlice(item)) {
      const { start, step, count } = resolveSlice(item, blocks, axis);
      if (step !== 1)
        throw new SelectionError(`Axis ${axis}: block selections only support step 1, got ${step}`);
      first = start;
      last = start + count;
    } else {
      throw new SelectionError(
        `Axis ${axis}: cannot select blocks with ${String(item)}; use an integer, slice() or null`,
      );
    }
    if (first >= last) return slice(0, 0);
    return slice(grid.start(first), Math.min(grid.start(last - 1) + grid.size(last - 1), length));
  });
  return new BasicIndexer(basic, arrayShape, layout);
}
