import type { ZarrArray } from "@z/zarr";
import { jsonText } from "../json-values.js";
import { absoluteDifference, elementsEqual, type Tolerance } from "./element-equality.js";
import { blockSelection, blockShape, blocksOf, indexInBlock } from "./value-blocks.js";

/** One element that differs: its index and both values (as `zarr get --json` encodes them). */
export interface ElementDifference {
  /** The element's index. */
  index: number[];
  /** The value in the first array. */
  a: unknown;
  /** The value in the second array. */
  b: unknown;
}

/** How the values of two arrays of one shape compare. */
export interface ValueComparison {
  /** Elements compared (the size of the arrays). */
  compared: number;
  /** Elements that differ. */
  differing: number;
  /** The first differing elements in C order, at most the `limit` asked for. */
  first: ElementDifference[];
  /** The largest `|a - b|` among differing numeric elements with finite values, if any. */
  maxAbsDifference: number | null;
}

/** The C-order position of an index in an array of `shape`. */
function flatIndex(index: readonly number[], shape: readonly number[]): number {
  return index.reduce((acc, x, axis) => acc * shape[axis] + x, 0);
}

/**
 * Compares two arrays of one shape element by element, block by block (see {@link blockShape}),
 * so at most one block of each is in memory whatever their chunking or format.
 * @param limit how many differing elements to keep
 */
export async function compareValues(
  a: ZarrArray,
  b: ZarrArray,
  tolerance: Tolerance,
  limit: number,
): Promise<ValueComparison> {
  const result: ValueComparison = { compared: 0, differing: 0, first: [], maxAbsDifference: null };
  const typeA = a.metadata.dataType;
  const typeB = b.metadata.dataType;
  const kept: { at: number; difference: ElementDifference }[] = [];
  for (const block of blocksOf(a.shape, blockShape(a, b))) {
    const selection = blockSelection(block);
    const [chunkA, chunkB] = await Promise.all([a.get(selection), b.get(selection)]);
    const n = block.shape.reduce((x, y) => x * y, 1);
    result.compared += n;
    for (let i = 0; i < n; i++) {
      const va = typeA.getElement(chunkA.data, i);
      const vb = typeB.getElement(chunkB.data, i);
      if (elementsEqual(va, vb, tolerance)) continue;
      result.differing++;
      const d = absoluteDifference(va, vb);
      if (d !== undefined && (result.maxAbsDifference === null || d > result.maxAbsDifference))
        result.maxAbsDifference = d;
      // Blocks are not in the arrays' C order (a block spans several rows): keep the
      // `limit` differences that come first in C order, whichever block they are in.
      const index = indexInBlock(block, i);
      const at = flatIndex(index, a.shape);
      const full = kept.length === limit;
      if (limit === 0 || (full && at > kept[kept.length - 1].at)) continue;
      const difference = {
        index,
        a: JSON.parse(jsonText(typeA.toJsonElement(va))),
        b: JSON.parse(jsonText(typeB.toJsonElement(vb))),
      };
      const position = kept.findIndex((k) => k.at > at);
      kept.splice(position < 0 ? kept.length : position, 0, { at, difference });
      if (kept.length > limit) kept.pop();
    }
  }
  result.first = kept.map((k) => k.difference);
  return result;
}
