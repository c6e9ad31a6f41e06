// The kept bits of quantize: private to the @z packages. quantize.ts holds the public side, which
// the package entry re-exports whole.
/**
 * The power of two numcodecs' quantize scales by for `digits` decimal digits, computed the way
 * numcodecs computes it (`log(10 ** -digits, 10)`, floored or ceiled, then `ceil(log2(...))`).
 * Powers of ten are parsed rather than computed: Python's `10.0 ** k` is correctly rounded,
 * JavaScript's `10 ** k` is not always.
 */
export function quantizeBits(digits: number): number {
  const precision = Number(`1e${-digits}`);
  const log10 = Math.log(precision) / Math.log(10);
  const exponent = log10 < 0 ? Math.floor(log10) : Math.ceil(log10);
  return Math.ceil(Math.log(Number(`1e${-exponent || 0}`)) / Math.log(2));
}
