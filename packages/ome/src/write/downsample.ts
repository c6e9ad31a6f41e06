import { cOrderStrides, product } from "@z/ndarray";

/** How a level's pixels come from the level before it. */
export type DownsampleMethod = "mean" | "nearest";

/** An n-d block of numbers in C order. */
export interface NumericBlock {
  /** The elements, row-major. */
  data: { [index: number]: number; readonly length: number };
  /** Its shape. */
  shape: number[];
}

/**
 * The block one level coarser: along each axis, output element `j` stands for the input
 * elements `j * factor` to `j * factor + factor - 1` (fewer at the block's far edge, where the
 * input ends). `"nearest"` takes the first of them, `"mean"` their average (rounded to the
 * nearest integer, halves away from zero, when `round`). The output has `ceil(n / factor)`
 * elements along an axis of `n`, and is written into `out`.
 */
export function downsampleBlock(
  input: NumericBlock,
  factors: readonly number[],
  method: DownsampleMethod,
  round: boolean,
  out: NumericBlock["data"],
): number[] {
  const nd = input.shape.length;
  const inShape = input.shape;
  const strides = cOrderStrides(inShape);
  const outShape = inShape.map((n, d) => Math.ceil(n / factors[d]));
  const total = product(outShape);
  const source = input.data;
  const at = new Array<number>(nd).fill(0);
  const lo = new Array<number>(nd);
  const span = new Array<number>(nd);
  const cur = new Array<number>(nd);
  for (let o = 0; o < total; o++) {
    let base = 0;
    let count = 1;
    for (let d = 0; d < nd; d++) {
      lo[d] = at[d] * factors[d];
      span[d] = Math.min(factors[d], inShape[d] - lo[d]);
      base += lo[d] * strides[d];
      count *= span[d];
    }
    if (method === "nearest" || count === 1) {
      out[o] = source[base];
    } else {
      // Visit the block's elements with an odometer over its span, tracking the flat offset.
      let sum = 0;
      let offset = base;
      cur.fill(0);
      for (let k = 0; k < count; k++) {
        sum += source[offset];
        for (let d = nd - 1; d >= 0; d--) {
          if (++cur[d] < span[d]) {
            offset += strides[d];
            break;
          }
          offset -= (span[d] - 1) * strides[d];
          cur[d] = 0;
        }
      }
      const mean = sum / count;
      out[o] = round ? Math.sign(mean) * Math.round(Math.abs(mean)) : mean;
    }
    for (let d = nd - 1; d >= 0; d--) {
      if (++at[d] < outShape[d]) break;
      at[d] = 0;
    }
  }
  return outShape;
}
