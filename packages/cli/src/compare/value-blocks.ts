import { slice, type ZarrArray } from "@z/zarr";

/** The most elements one block of a comparison reads from each array. */
export const MAX_BLOCK_ELEMENTS = 1 << 20;

const size = (shape: readonly number[]) => shape.reduce((a, b) => a * b, 1);

/** The chunk (or shard) shape an array stores, for the blocks that read it. */
const storedChunks = (array: ZarrArray) => array.metadata.chunkGrid.chunkShape ?? array.info.chunks;

/**
 * The block shape a comparison reads at a time: on each axis the larger of the two arrays'
 * chunks (their shards, for sharded arrays), so a chunk of either is decoded about once rather
 * than once per smaller chunk of the other, cut down on the leading axes to at most
 * `maxElements` elements so memory stays bounded whatever the chunking.
 */
export function blockShape(
  a: ZarrArray,
  b: ZarrArray = a,
  maxElements = MAX_BLOCK_ELEMENTS,
): number[] {
  const [gridA, gridB] = [storedChunks(a), storedChunks(b)];
  const block = a.shape.map((n, axis) =>
    Math.max(1, Math.min(n, Math.max(gridA[axis] ?? n, gridB[axis] ?? n))),
  );
  for (let axis = 0; axis < block.length && size(block) > maxElements; axis++) {
    const rest = size(block) / block[axis];
    block[axis] = Math.max(1, Math.floor(maxElements / rest));
  }
  return block;
}

/** One block of an array: where it starts and its shape. */
export interface Block {
  /** The block's first index on each axis. */
  start: number[];
  /** The block's extent on each axis (smaller at the array's upper edges). */
  shape: number[];
}

/** The blocks of `shape`, in C order, each `block` in size (cut at the upper edges). */
export function* blocksOf(shape: readonly number[], block: readonly number[]): Generator<Block> {
  if (shape.some((n) => n === 0)) return;
  const counts = shape.map((n, axis) => Math.ceil(n / block[axis]));
  const position = counts.map(() => 0);
  for (;;) {
    const start = position.map((p, axis) => p * block[axis]);
    yield { start, shape: start.map((s, axis) => Math.min(block[axis], shape[axis] - s)) };
    let axis = counts.length - 1;
    while (axis >= 0 && ++position[axis] === counts[axis]) position[axis--] = 0;
    if (axis < 0) return;
  }
}

/** The selection that reads one block. */
export function blockSelection(block: Block) {
  return block.start.map((s, axis) => slice(s, s + block.shape[axis]));
}

/** The array index of element `offset` (C order) of a block. */
export function indexInBlock(block: Block, offset: number): number[] {
  const index = new Array<number>(block.shape.length);
  for (let axis = block.shape.length - 1; axis >= 0; axis--) {
    index[axis] = block.start[axis] + (offset % block.shape[axis]);
    offset = Math.floor(offset / block.shape[axis]);
  }
  return index;
}
