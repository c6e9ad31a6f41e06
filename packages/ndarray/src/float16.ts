/** The Float16Array class when the runtime has one (Node 24+, recent browsers). */
export const NativeFloat16Array: (new (length: number) => Float32Array) | undefined = (
  globalThis as unknown as { Float16Array?: new (length: number) => Float32Array }
).Float16Array;

/** Decodes IEEE 754 half-precision bits into a number. */
export function halfToNumber(bits: number): number {
  const sign = bits & 0x8000 ? -1 : 1;
  const exponent = (bits >> 10) & 0x1f;
  const fraction = bits & 0x3ff;
  if (exponent === 0) return sign * fraction * 2 ** -24;
  if (exponent === 0x1f) return fraction ? Number.NaN : sign * Number.POSITIVE_INFINITY;
  return sign * (1 + fraction / 1024) * 2 ** (exponent - 15);
}

/** Encodes a number as IEEE 754 half-precision bits, rounding to nearest even. */
export function numberToHalf(value: number): number {
  if (Number.isNaN(value)) return 0x7e00;
  const sign = value < 0 || Object.is(value, -0) ? 0x8000 : 0;
  const a = Math.abs(value);
  // 65520 is halfway between the largest half (65504) and the next power, so it rounds to inf.
  if (a >= 65520) return sign | 0x7c00;
  if (a < 2 ** -14) return sign | roundHalfEven(a * 2 ** 24);
  let e = Math.floor(Math.log2(a));
  if (2 ** e > a) e--;
  else if (2 ** (e + 1) <= a) e++;
  let m = roundHalfEven((a / 2 ** e - 1) * 1024);
  if (m === 1024) {
    m = 0;
    e++;
  }
  if (e > 15) return sign | 0x7c00;
  return sign | ((e + 15) << 10) | m;
}

function roundHalfEven(x: number): number {
  const floor = Math.floor(x);
  const rest = x - floor;
  if (rest > 0.5) return floor + 1;
  if (rest < 0.5) return floor;
  return floor + (floor & 1);
}
