import type { Chunk, NamedConfig, ZarrArray } from "@z/zarr";

// zarrita returns selections in the array's own memory order: an array stored with a
// `transpose` codec (or v2 `order: "F"`) reads as strides of that order, not C order. The
// @z stack reads in C order; these helpers lay a result out as zarrita would.

function transposeOrder(
  codecs: readonly NamedConfig[] | undefined,
  ndim: number,
): number[] | undefined {
  for (const codec of codecs ?? []) {
    if (codec.name === "sharding_indexed") {
      const inner = (codec.configuration as { codecs?: NamedConfig[] }).codecs;
      return transposeOrder(inner, ndim);
    }
    if (codec.name !== "transpose") continue;
    const order = (codec.configuration as { order?: unknown }).order;
    if (order === "F") return Array.from({ length: ndim }, (_, i) => ndim - 1 - i);
    if (Array.isArray(order)) return order as number[];
  }
  return undefined;
}

/** The array's memory order (a permutation of its axes), or undefined for C order. */
export function nativeOrderOf(node: ZarrArray): number[] | undefined {
  const meta = node.metadata;
  const ndim = meta.shape.length;
  const order = transposeOrder(meta.codecs, ndim);
  if (order !== undefined) return order;
  if ((meta.v2 as { order?: string } | undefined)?.order === "F") {
    return Array.from({ length: ndim }, (_, i) => ndim - 1 - i);
  }
  return undefined;
}

/** Element strides of `shape` laid out in `order` (outermost axis first). */
export function stridesInOrder(shape: readonly number[], order: readonly number[]): number[] {
  const stride = new Array<number>(shape.length);
  let step = 1;
  for (let i = order.length - 1; i >= 0; i--) {
    const axis = order[i] as number;
    stride[axis] = step;
    step *= shape[axis] as number;
  }
  return stride;
}

/** The order restricted to the axes a selection keeps (integer indexes drop theirs). */
function keptOrder(order: readonly number[], selection: unknown, ndim: number): number[] {
  const items = Array.isArray(selection) ? selection : [];
  const kept: number[] = [];
  for (let axis = 0; axis < ndim; axis++) if (typeof items[axis] !== "number") kept.push(axis);
  const rank = new Map(kept.map((axis, i) => [axis, i]));
  return order.filter((axis) => rank.has(axis)).map((axis) => rank.get(axis) as number);
}

/**
 * A C-order result laid out in the array's memory order (a copy; the result itself when the
 * order is C or the selection keeps fewer than two axes).
 */
export function relayout(
  chunk: Chunk,
  order: readonly number[] | undefined,
  selection: unknown,
  ndim: number,
): Chunk {
  if (order === undefined || chunk.shape.length < 2) return chunk;
  const { shape, data } = chunk;
  const stride = stridesInOrder(shape, keptOrder(order, selection, ndim));
  if (stride.every((s, i) => s === chunk.stride[i])) return chunk;
  const size = shape.reduce((a, b) => a * b, 1);
  if (size === 0) return { data, shape, stride };
  // Fixed-width strings and complex numbers take several slots per element.
  const width = data.length / size;
  const out = (
    Array.isArray(data)
      ? new Array(data.length)
      : new (data.constructor as new (n: number) => typeof data)(data.length)
  ) as typeof data;
  const index = new Array<number>(shape.length).fill(0);
  for (let n = 0; n < size; n++) {
    let from = 0;
    let to = 0;
    for (let d = 0; d < shape.length; d++) {
      from += (index[d] as number) * (chunk.stride[d] as number);
      to += (index[d] as number) * (stride[d] as number);
    }
    for (let k = 0; k < width; k++)
      (out as unknown[])[to * width + k] = (data as unknown[])[from * width + k];
    for (let d = shape.length - 1; d >= 0; d--) {
      index[d] = (index[d] as number) + 1;
      if ((index[d] as number) < (shape[d] as number)) break;
      index[d] = 0;
    }
  }
  return { data: out, shape, stride };
}
