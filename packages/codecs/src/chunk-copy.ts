import type { Chunk } from "@z/ndarray";
import { cOrderStrides, copyStrided, product } from "@z/ndarray";
import type { ChunkSpec } from "./types.js";

/**
 * A C-order chunk of `shape` that a write may modify: a copy of `stored` when given (decoded
 * chunks may be views of a store's own buffer, never modified in place), else the fill value.
 */
export function writableChunk(
  spec: Pick<ChunkSpec, "dataType" | "fillValue">,
  shape: readonly number[],
  stored?: Chunk,
): Chunk {
  const { dataType, fillValue } = spec;
  const data = dataType.create(product(shape));
  const stride = cOrderStrides(shape);
  if (stored) {
    copyStrided(
      { data: stored.data, offset: 0, stride: stored.stride },
      { data, offset: 0, stride },
      shape,
      dataType.lanes,
    );
  } else {
    dataType.fill(data, fillValue);
  }
  return { data, shape: [...shape], stride };
}

/** The element offset, in a chunk of strides `stride`, of the sub-chunk at `coords` of `subShape`. */
export function subchunkOffset(
  coords: readonly number[],
  subShape: readonly number[],
  stride: readonly number[],
): number {
  let offset = 0;
  for (let axis = 0; axis < coords.length; axis++)
    offset += coords[axis] * subShape[axis] * stride[axis];
  return offset;
}
