import { miniFloatNaNCode, signBit } from "./minifloat-codes.js";
// Bit-level conversions for the small floating-point formats of the zarr-extensions registry
// (bfloat16, float8_*, float6_*, float4_*). One generic decoder and encoder driven by a format
// table, so every format follows the same rounding rule and the tests can check all codes.

/**
 * How a format spends its special codes:
 * - `ieee`: the all-ones exponent holds ±Infinity (zero mantissa) and NaN (any other);
 * - `fnuz`: finite, one NaN at the negative-zero code `0b1000…`, no -0, no infinity;
 * - `fn`: finite, no NaN, no infinity (every code is a number);
 * - `e8m0`: unsigned powers of two, the all-ones code is NaN, no zero.
 */
export type MiniFloatSpecials = "ieee" | "fnuz" | "fn" | "e8m0";

/** The layout of one small floating-point format. */
export interface MiniFloatFormat {
  /** The v3 data type name, e.g. `"float8_e4m3"`. */
  readonly name: string;
  /** Bits of one value (16, 8, 6 or 4); the rest of its stored byte(s) is ignored. */
  readonly bits: number;
  /** Exponent bits. */
  readonly exponentBits: number;
  /** Mantissa (fraction) bits. */
  readonly mantissaBits: number;
  /** Exponent bias. */
  readonly bias: number;
  /** Which special values the format has. */
  readonly specials: MiniFloatSpecials;
}

const format = (
  name: string,
  exponentBits: number,
  mantissaBits: number,
  bias: number,
  specials: MiniFloatSpecials,
): MiniFloatFormat => ({
  name,
  bits: (specials === "e8m0" ? 0 : 1) + exponentBits + mantissaBits,
  exponentBits,
  mantissaBits,
  bias,
  specials,
});

/** Every small float format of the registry, by data type name. */
export const miniFloatFormats: Readonly<Record<string, MiniFloatFormat>> = Object.fromEntries(
  [
    format("bfloat16", 8, 7, 127, "ieee"),
    format("float8_e3m4", 3, 4, 3, "ieee"),
    format("float8_e4m3", 4, 3, 7, "ieee"),
    format("float8_e5m2", 5, 2, 15, "ieee"),
    format("float8_e4m3fnuz", 4, 3, 8, "fnuz"),
    format("float8_e4m3b11fnuz", 4, 3, 11, "fnuz"),
    format("float8_e5m2fnuz", 5, 2, 16, "fnuz"),
    format("float8_e8m0fnu", 8, 0, 127, "e8m0"),
    format("float6_e2m3fn", 2, 3, 1, "fn"),
    format("float6_e3m2fn", 3, 2, 3, "fn"),
    format("float4_e2m1fn", 2, 1, 1, "fn"),
  ].map((f) => [f.name, f]),
);

/** The value of a code (its low `bits` bits; higher bits are ignored, as the specs say). */
export function decodeMiniFloat(f: MiniFloatFormat, code: number): number {
  const m = f.mantissaBits;
  const bits = code & (2 ** f.bits - 1);
  if (f.specials === "e8m0") return bits === 0xff ? Number.NaN : 2 ** (bits - f.bias);
  const sign = signBit(f);
  const negative = (bits & sign) !== 0;
  const magnitude = bits & (sign - 1);
  if (f.specials === "fnuz" && bits === sign) return Number.NaN;
  const exponent = magnitude >> m;
  const fraction = magnitude & ((1 << m) - 1);
  let value: number;
  if (f.specials === "ieee" && exponent === 2 ** f.exponentBits - 1) {
    value = fraction === 0 ? Number.POSITIVE_INFINITY : Number.NaN;
    if (Number.isNaN(value)) return value;
  } else if (exponent === 0) {
    value = fraction * 2 ** (1 - f.bias - m);
  } else {
    value = (2 ** m + fraction) * 2 ** (exponent - f.bias - m);
  }
  return negative ? -value : value;
}

/** The exponent of the highest power of two not above `a` (a finite positive number). */
function floorLog2(a: number): number {
  let e = Math.floor(Math.log2(a));
  // Math.log2 may be off by one near powers of two; correct it exactly.
  if (2 ** e > a) e--;
  else if (2 ** (e + 1) <= a) e++;
  return e;
}

function roundHalfEven(x: number): number {
  const floor = Math.floor(x);
  const rest = x - floor;
  if (rest > 0.5) return floor + 1;
  if (rest < 0.5) return floor;
  return floor + (floor & 1);
}

/**
 * The magnitude code nearest to a finite positive number, rounding ties to even, before any
 * overflow handling (it may exceed the largest finite code).
 */
function roundMagnitude(f: MiniFloatFormat, a: number): number {
  const m = f.mantissaBits;
  // The smallest exponent of a normal value: code 0 is subnormal, except in e8m0 (2^-127).
  const emin = f.specials === "e8m0" ? -f.bias : 1 - f.bias;
  const e = Math.max(floorLog2(a), emin);
  // Exact: a has at most 53 significant bits and the scale is a power of two in range.
  const k = roundHalfEven(a * 2 ** (m - e));
  const code = (e - emin) * 2 ** m + k;
  // e8m0 has no implicit leading one below its smallest code: values under it round up to it.
  return f.specials === "e8m0" ? Math.max(code - 1, 0) : code;
}

/**
 * The code of a number, rounded to nearest with ties to even: the conversion of ml_dtypes
 * (the reference implementation the registry names), also for values a format cannot hold:
 * - `ieee`: beyond the largest finite value (after rounding) is ±Infinity;
 * - `fnuz`: NaN, ±Infinity and overflow are the NaN code; -0 and negative underflow are +0;
 * - `fn`: ±Infinity and overflow saturate to ±max; NaN is the -0 code (as ml_dtypes does);
 * - `e8m0`: NaN, ±Infinity, zero, negatives and overflow are NaN; tiny values are 2^-127.
 */
export function encodeMiniFloat(f: MiniFloatFormat, value: number): number {
  const sign = signBit(f);
  const nan = miniFloatNaNCode(f);
  const m = f.mantissaBits;
  if (Number.isNaN(value)) return nan ?? sign;
  const negative = value < 0 || Object.is(value, -0);
  if (f.specials === "e8m0") {
    if (value <= 0 || value === Number.POSITIVE_INFINITY) return 0xff;
    const code = roundMagnitude(f, value);
    return Math.min(code, 0xff);
  }
  const a = Math.abs(value);
  const withSign = (magnitude: number) => (negative ? sign | magnitude : magnitude);
  if (f.specials === "ieee") {
    const infinity = (2 ** f.exponentBits - 1) * 2 ** m;
    if (a === Number.POSITIVE_INFINITY) return withSign(infinity);
    const code = a === 0 ? 0 : roundMagnitude(f, a);
    return withSign(Math.min(code, infinity));
  }
  const largest = sign - 1;
  if (f.specials === "fnuz") {
    if (a === Number.POSITIVE_INFINITY) return sign;
    const code = a === 0 ? 0 : roundMagnitude(f, a);
    if (code > largest) return sign;
    return code === 0 ? 0 : withSign(code);
  }
  const code = a === Number.POSITIVE_INFINITY ? largest : a === 0 ? 0 : roundMagnitude(f, a);
  return withSign(Math.min(code, largest));
}
