import {
  BasicIndexer,
  type BasicSelection,
  type BlockItem,
  blockIndexer,
  type ChunkLayout,
  CoordinateIndexer,
  type CoordinateSelection,
  type Indexer,
  type Mask,
  OrthogonalIndexer,
  type OrthogonalItem,
} from "@z/indexing";
import { isAxisMask, isIndexArray } from "@z/indexing/internal";
import type { ArrayMetadata } from "@z/metadata";

/** A selection of any mode: tagged explicitly, or plain items interpreted like zarr-python's `arr[...]`. */
export type AnySelection =
  | { orthogonal: readonly OrthogonalItem[] | OrthogonalItem }
  | { coordinates: CoordinateSelection }
  | { mask: Mask }
  | { blocks: readonly BlockItem[] | BlockItem }
  | BasicSelection
  | readonly OrthogonalItem[];

function isFullMask(selection: unknown, shape: readonly number[]): boolean {
  if (
    typeof selection !== "object" ||
    selection === null ||
    !("data" in selection) ||
    !("shape" in selection)
  )
    return false;
  const m = selection as { data: unknown; shape: readonly number[] };
  const data = m.data as ArrayLike<unknown> & { toBooleans?: unknown };
  const boolean =
    typeof data.toBooleans === "function" || (Array.isArray(data) && typeof data[0] === "boolean");
  return boolean && m.shape.length === shape.length;
}

/** The indexer a selection of any mode needs. */
export function indexerFor(
  selection: AnySelection,
  metadata: ArrayMetadata,
  chunkShape: ChunkLayout,
): Indexer {
  const shape = metadata.shape;
  if (
    selection !== null &&
    typeof selection === "object" &&
    !Array.isArray(selection) &&
    !ArrayBuffer.isView(selection)
  ) {
    if ("orthogonal" in selection)
      return new OrthogonalIndexer(selection.orthogonal, shape, chunkShape);
    if ("coordinates" in selection)
      return new CoordinateIndexer(selection.coordinates, shape, chunkShape);
    if ("mask" in selection) return CoordinateIndexer.fromMask(selection.mask, shape, chunkShape);
    if ("blocks" in selection)
      return blockIndexer(selection.blocks, shape, metadata.chunkGrid.axes, chunkShape);
    if (isFullMask(selection, shape))
      return CoordinateIndexer.fromMask(selection as Mask, shape, chunkShape);
  }
  const items = (Array.isArray(selection) ? selection : [selection]) as readonly unknown[];
  const arrays = items.filter((item) => isIndexArray(item) || isAxisMask(item));
  if (arrays.length > 0) {
    if (
      items.length === shape.length &&
      shape.length > 1 &&
      items.every((item) => isIndexArray(item))
    ) {
      return new CoordinateIndexer(items as CoordinateSelection, shape, chunkShape);
    }
    return new OrthogonalIndexer(items as OrthogonalItem[], shape, chunkShape);
  }
  return new BasicIndexer(selection as BasicSelection, shape, chunkShape);
}
