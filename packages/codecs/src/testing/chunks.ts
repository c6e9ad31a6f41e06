import type { JsonValue } from "@z/metadata";
import type { Chunk } from "@z/ndarray";
import { cOrderStrides, product } from "@z/ndarray";
import type { ChunkSpec } from "../types.js";

/** A C-order chunk of `spec` holding `values` (one per element, in C order). */
export function chunkOf(spec: ChunkSpec, values: readonly unknown[]): Chunk {
  const n = product(spec.shape);
  if (values.length !== n) {
    throw new Error(`chunkOf: ${values.length} values for a chunk of shape [${spec.shape}] (${n})`);
  }
  const data = spec.dataType.create(n);
  values.forEach((v, i) => {
    spec.dataType.setElement(data, i, spec.dataType.coerce(v));
  });
  return { data, shape: [...spec.shape], stride: cOrderStrides(spec.shape) };
}

/**
 * The elements of a chunk of any strides, in C order, in their JSON form (so NaN, bigints and
 * byte strings compare by value).
 */
export function chunkValues(chunk: Chunk, spec: ChunkSpec): JsonValue[] {
  const { shape, stride } = chunk;
  const out: JsonValue[] = [];
  const index = shape.map(() => 0);
  const n = product(shape);
  for (let k = 0; k < n; k++) {
    const offset = index.reduce((sum, i, axis) => sum + i * stride[axis], 0);
    out.push(spec.dataType.toJsonElement(spec.dataType.getElement(chunk.data, offset)));
    for (let axis = shape.length - 1; axis >= 0; axis--) {
      if (++index[axis] < shape[axis]) break;
      index[axis] = 0;
    }
  }
  return out;
}

/**
 * A spec with fewer elements than `spec` (the first axis longer than 1 halved), or undefined
 * for a single-element chunk.
 */
export function smallerSpec(spec: ChunkSpec): ChunkSpec | undefined {
  const axis = spec.shape.findIndex((n) => n > 1);
  if (axis < 0) return undefined;
  const shape = [...spec.shape];
  shape[axis] = Math.floor(shape[axis] / 2);
  return { ...spec, shape };
}
