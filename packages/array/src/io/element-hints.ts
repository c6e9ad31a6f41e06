// The elements of a chunk that a read's parts take, for decoders that can skip the rest (blosc
// decodes only the blocks they touch). Loaded with the first partial read of such an array, so
// an app whose arrays use other codecs does not download it.
import { type ChunkRegion, type IndexRange, product, regionElementRanges } from "@z/ndarray";
import type { ChunkGroup } from "./chunk-groups.js";

/**
 * The C-order element ranges of a whole chunk of `shape` that its group's parts read;
 * undefined when a part is no strided region, or the parts read the whole chunk.
 */
export function elementsOf(group: ChunkGroup, shape: readonly number[]): IndexRange[] | undefined {
  const regions: ChunkRegion[] = [];
  for (const { part } of group.items) {
    const region = part.region?.();
    if (region === undefined) return undefined;
    regions.push(region);
  }
  const elements = regionElementRanges(shape, regions);
  const [first] = elements;
  if (elements.length === 1 && first[0] === 0 && first[1] === product(shape)) return undefined;
  return elements;
}
