import { type Container, isTypedArray } from "@z/ndarray";

/**
 * Copies an n-d block whose positions along each axis are given as element offsets (already
 * multiplied by that axis's stride) on both sides: `src[srcBase + Σ srcOffsets[a][i_a]]` goes to
 * `dst[dstBase + Σ dstOffsets[a][i_a]]`. Orthogonal selections with index arrays, repeated and
 * unsorted indices included, copy through this. Contiguous innermost runs use `TypedArray.set`.
 */
export function copyByOffsets(
  src: Container,
  srcBase: number,
  srcOffsets: readonly Float64Array[],
  dst: Container,
  dstBase: number,
  dstOffsets: readonly Float64Array[],
  lanes: number,
): void {
  const ndim = srcOffsets.length;
  if (srcOffsets.some((o) => o.length === 0)) return;
  if (ndim === 0) {
    copyElement(src, srcBase * lanes, dst, dstBase * lanes, lanes);
    return;
  }
  const last = ndim - 1;
  const innerSrc = srcOffsets[last];
  const innerDst = dstOffsets[last];
  const run = innerSrc.length;
  const contiguous =
    isUnitRun(innerSrc) && isUnitRun(innerDst) && isTypedArray(src) && isTypedArray(dst);
  const index = new Array<number>(ndim).fill(0);
  for (;;) {
    let s = srcBase;
    let d = dstBase;
    for (let axis = 0; axis < last; axis++) {
      s += srcOffsets[axis][index[axis]];
      d += dstOffsets[axis][index[axis]];
    }
    if (contiguous) {
      const start = (s + innerSrc[0]) * lanes;
      (dst as Uint8Array).set(
        (src as Uint8Array).subarray(start, start + run * lanes),
        (d + innerDst[0]) * lanes,
      );
    } else {
      for (let i = 0; i < run; i++)
        copyElement(src, (s + innerSrc[i]) * lanes, dst, (d + innerDst[i]) * lanes, lanes);
    }
    let axis = last - 1;
    for (; axis >= 0; axis--) {
      if (++index[axis] < srcOffsets[axis].length) break;
      index[axis] = 0;
    }
    if (axis < 0) return;
  }
}

/**
 * Calls `visit(offset)` for every position of an n-d block given as per-axis element offsets
 * (used to write a scalar into an orthogonal selection).
 */
export function forEachOffset(
  base: number,
  offsets: readonly Float64Array[],
  visit: (offset: number) => void,
): void {
  if (offsets.some((o) => o.length === 0)) return;
  const ndim = offsets.length;
  const index = new Array<number>(ndim).fill(0);
  for (;;) {
    let o = base;
    for (let axis = 0; axis < ndim; axis++) o += offsets[axis][index[axis]];
    visit(o);
    let axis = ndim - 1;
    for (; axis >= 0; axis--) {
      if (++index[axis] < offsets[axis].length) break;
      index[axis] = 0;
    }
    if (axis < 0) return;
  }
}

function isUnitRun(offsets: Float64Array): boolean {
  for (let i = 1; i < offsets.length; i++) if (offsets[i] !== offsets[i - 1] + 1) return false;
  return offsets.length > 1;
}

function copyElement(src: Container, s: number, dst: Container, d: number, lanes: number): void {
  for (let k = 0; k < lanes; k++) (dst as unknown[])[d + k] = (src as unknown[])[s + k];
}

/** Multiplies every index by a stride (the element offsets of positions along one axis). */
export function scaled(indices: Int32Array, stride: number): Float64Array {
  const out = new Float64Array(indices.length);
  for (let i = 0; i < indices.length; i++) out[i] = indices[i] * stride;
  return out;
}
