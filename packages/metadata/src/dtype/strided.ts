import { type Chunk, type Container, cOrderStrides, isTypedArray, product } from "./containers.js";

/** One side of a strided copy: a container, the element offset of the first element, strides. */
export interface StridedView {
  /** The elements. */
  data: Container;
  /** Element index of the view's first element. */
  offset: number;
  /** Element strides, one per dimension (may be negative). */
  stride: readonly number[];
}

/**
 * Copies an n-d block of `shape` from one strided view to another. Runs that are contiguous
 * in both views are copied with `TypedArray.set`, the rest element by element; `lanes` is the
 * number of container slots per element (2 for interleaved complex).
 */
export function copyStrided(src: StridedView, dst: StridedView, shape: readonly number[], lanes = 1): void {
  const ndim = shape.length;
  if (shape.some((n) => n === 0)) return;
  if (ndim === 0) {
    copyRun(src.data, src.offset * lanes, 1, dst.data, dst.offset * lanes, 1, 1, lanes);
    return;
  }
  const last = ndim - 1;
  const runLength = shape[last];
  const srcStep = src.stride[last];
  const dstStep = dst.stride[last];
  const index = new Array<number>(ndim).fill(0);
  let srcOffset = src.offset;
  let dstOffset = dst.offset;
  for (;;) {
    copyRun(src.data, srcOffset * lanes, srcStep, dst.data, dstOffset * lanes, dstStep, runLength, lanes);
    // Advance the outer index like an odometer.
    let axis = last - 1;
    for (; axis >= 0; axis--) {
      index[axis]++;
      srcOffset += src.stride[axis];
      dstOffset += dst.stride[axis];
      if (index[axis] < shape[axis]) break;
      srcOffset -= src.stride[axis] * shape[axis];
      dstOffset -= dst.stride[axis] * shape[axis];
      index[axis] = 0;
    }
    if (axis < 0) return;
  }
}

function copyRun(
  src: Container,
  srcStart: number,
  srcStep: number,
  dst: Container,
  dstStart: number,
  dstStep: number,
  count: number,
  lanes: number,
): void {
  if (srcStep === 1 && dstStep === 1) {
    const n = count * lanes;
    if (isTypedArray(src) && isTypedArray(dst) && n > 16) {
      (dst as Uint8Array).set((src as Uint8Array).subarray(srcStart, srcStart + n), dstStart);
      return;
    }
    for (let i = 0; i < n; i++) (dst as unknown[])[dstStart + i] = (src as unknown[])[srcStart + i];
    return;
  }
  const s = src as unknown[];
  const d = dst as unknown[];
  if (lanes === 1) {
    for (let i = 0, si = srcStart, di = dstStart; i < count; i++, si += srcStep, di += dstStep) d[di] = s[si];
    return;
  }
  const sStep = srcStep * lanes;
  const dStep = dstStep * lanes;
  for (let i = 0, si = srcStart, di = dstStart; i < count; i++, si += sStep, di += dStep) {
    for (let k = 0; k < lanes; k++) d[di + k] = s[si + k];
  }
}

/** Whether a chunk's strides are C order for its shape (dimensions of extent 1 ignored). */
export function isCContiguous(chunk: Chunk): boolean {
  const expected = cOrderStrides(chunk.shape);
  return chunk.shape.every((extent, i) => extent <= 1 || chunk.stride[i] === expected[i]);
}

/**
 * The chunk in C order: the same chunk when it already is, otherwise a C-order copy made
 * with `create` (which allocates a container for n elements).
 */
export function toCOrder<C extends Chunk>(chunk: C, create: (n: number) => Container, lanes = 1): C {
  if (isCContiguous(chunk)) return chunk;
  const data = create(product(chunk.shape));
  const stride = cOrderStrides(chunk.shape);
  copyStrided({ data: chunk.data, offset: 0, stride: chunk.stride }, { data, offset: 0, stride }, chunk.shape, lanes);
  return { ...chunk, data, shape: [...chunk.shape], stride };
}
