import { type DataType, halfToNumber, numberToHalf } from "@z/zarr";

/** The floating-point widths whose values print with their own shortest digits. */
export type FloatBits = 16 | 32 | 64;

const roundTo: Record<FloatBits, (x: number) => number> = {
  16: (x) => halfToNumber(numberToHalf(x)),
  32: Math.fround,
  64: (x) => x,
};

/**
 * The shortest decimal that reads back as the same float of `bits` width, as a number: the
 * float32 nearest 0.1 is 0.10000000149011612 as a double but prints as 0.1, as NumPy and
 * zarr-python print it. Non-finite values and float64 values come back unchanged (JavaScript
 * already prints doubles with their shortest digits).
 */
export function shortestFloat(value: number, bits: FloatBits): number {
  if (bits === 64 || !Number.isFinite(value) || value === 0) return value;
  const round = roundTo[bits];
  // 9 significant digits always round-trip a float32 (5 a float16), so the loop ends there.
  for (let digits = 1; digits < 17; digits++) {
    const candidate = Number(value.toPrecision(digits));
    if (round(candidate) === value) return candidate;
  }
  return value;
}

/** Data types whose elements are narrower floats than a double (complex64 has float32 parts). */
const NARROW_FLOATS: Readonly<Record<string, FloatBits>> = {
  float16: 16,
  float32: 32,
  complex64: 32,
};

/** The width of the floats in a data type's elements: 16, 32, or 64 for every other type. */
export function floatBitsOf(dataType: DataType): FloatBits {
  return Object.hasOwn(NARROW_FLOATS, dataType.name) ? NARROW_FLOATS[dataType.name] : 64;
}

/**
 * A JSON element of a data type with its floats at their shortest digits (numbers, and the
 * `[re, im]` pairs of complex values); anything else unchanged.
 */
export function shortenJsonFloats(value: unknown, bits: FloatBits): unknown {
  if (bits === 64) return value;
  if (typeof value === "number") return shortestFloat(value, bits);
  if (Array.isArray(value)) return value.map((part) => shortenJsonFloats(part, bits));
  return value;
}
