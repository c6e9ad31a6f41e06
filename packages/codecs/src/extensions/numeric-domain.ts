/**
 * The values a numeric data type can hold, for casts that round and range-check exactly
 * (`cast_value`, `scale_offset`). Works through the `DataType` interface only, so data types
 * added later (bfloat16, the float8 family, int4) plug in: integer types by their bit width,
 * float types of up to 16 bits by decoding every bit pattern once into a sorted table.
 */

import type { DataType } from "@z/metadata";
import type { Container } from "@z/ndarray";
import { CodecConfigError } from "../errors.js";

/** One element: a number, or a bigint for 64-bit integer types. */
export type NumericScalar = number | bigint;

/** The two representable values around a value that is not representable. */
export interface Bracket {
  /** The largest representable value below (may lie beyond the finite range). */
  lo: number;
  /** The smallest representable value above (may lie beyond the finite range). */
  hi: number;
  /** Whether `lo` has an even last significand digit (ties to even pick it). */
  loEven: boolean;
}

/** An integer type: its range and how its elements are held. */
export interface IntegerDomain {
  /** Discriminates the domains. */
  readonly kind: "integer";
  /** The data type. */
  readonly dataType: DataType;
  /** The width in bits (the modulus of `wrap` is 2^bits). */
  readonly bits: number;
  /** Whether it is signed (two's complement). */
  readonly signed: boolean;
  /** The smallest value. */
  readonly min: bigint;
  /** The largest value. */
  readonly max: bigint;
  /** Whether elements are bigints (64-bit types). */
  readonly big: boolean;
}

/** A float type: its special values, finite range and the neighbours of any value. */
export interface FloatDomain {
  /** Discriminates the domains. */
  readonly kind: "float";
  /** The data type. */
  readonly dataType: DataType;
  /** Whether it has a NaN. */
  readonly hasNaN: boolean;
  /** Whether it has ±Infinity. */
  readonly hasInfinity: boolean;
  /** Whether it has -0 (a distinct negative zero). */
  readonly hasNegativeZero: boolean;
  /** The most negative finite value. */
  readonly minFinite: number;
  /** The largest finite value. */
  readonly maxFinite: number;
  /** `value` itself when representable, else its neighbours. `value` is finite and not 0. */
  bracket(value: NumericScalar): number | Bracket;
}

/** Either domain. */
export type NumericDomain = IntegerDomain | FloatDomain;

const cache = new WeakMap<DataType, NumericDomain>();

/**
 * The numeric domain of a data type.
 * @throws CodecConfigError for types that do not model real numbers, or float types wider than
 * 16 bits other than float32 and float64
 */
export function numericDomain(dataType: DataType, codec: string): NumericDomain {
  const cached = cache.get(dataType);
  if (cached) return cached;
  const domain = buildDomain(dataType, codec);
  cache.set(dataType, domain);
  return domain;
}

function buildDomain(dataType: DataType, codec: string): NumericDomain {
  if ((dataType.kind === "int" || dataType.kind === "uint") && dataType.lanes === 1) {
    // The name carries the width for int2/int4 held one per byte; the item size otherwise.
    const match = /^u?int(\d+)$/.exec(dataType.name);
    const bits = match ? Number(match[1]) : dataType.itemSize * 8;
    const signed = dataType.kind === "int";
    return {
      kind: "integer",
      dataType,
      bits,
      signed,
      min: signed ? -(1n << BigInt(bits - 1)) : 0n,
      max: signed ? (1n << BigInt(bits - 1)) - 1n : (1n << BigInt(bits)) - 1n,
      big: typeof dataType.defaultFill === "bigint",
    };
  }
  if (dataType.kind === "float" && dataType.lanes === 1) {
    if (dataType.name === "float64") return FLOAT64(dataType);
    if (dataType.name === "float32") return FLOAT32(dataType);
    if (dataType.itemSize <= 2) return tableDomain(dataType);
  }
  throw new CodecConfigError(
    `${codec}: data type ${dataType.name} is not supported; only integer and float types (real numbers) are`,
  );
}

/** Exact comparison of a scalar with a number: negative, zero or positive. */
export function compareExact(x: NumericScalar, y: number): number {
  if (typeof x === "number") return x < y ? -1 : x > y ? 1 : 0;
  if (!Number.isFinite(y)) return y > 0 ? -1 : 1;
  if (Number.isInteger(y)) {
    const b = BigInt(y);
    return x < b ? -1 : x > b ? 1 : 0;
  }
  return x <= BigInt(Math.floor(y)) ? -1 : 1;
}

/** The bracket of `x` by stepping from an approximation with exact comparisons. */
function bracketBy(
  x: NumericScalar,
  approx: number,
  nextUp: (v: number) => number,
  nextDown: (v: number) => number,
  isEven: (v: number) => boolean,
): number | Bracket {
  let c = approx;
  let order = compareExact(x, c);
  if (order === 0) return c;
  if (order > 0) {
    let hi = nextUp(c);
    while ((order = compareExact(x, hi)) > 0) {
      const next = nextUp(hi);
      // Past the value beyond the largest: out of range whichever way it rounds.
      if (next === hi) return { lo: hi, hi, loEven: isEven(hi) };
      c = hi;
      hi = next;
    }
    return order === 0 ? hi : { lo: c, hi, loEven: isEven(c) };
  }
  let lo = nextDown(c);
  while ((order = compareExact(x, lo)) < 0) {
    const next = nextDown(lo);
    if (next === lo) return { lo, hi: lo, loEven: isEven(lo) };
    c = lo;
    lo = next;
  }
  return order === 0 ? lo : { lo, hi: c, loEven: isEven(lo) };
}

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);
const MAX_FLOAT32 = 3.4028234663852886e38;

/** The next float32 above a float32 value; 2^128 stands for the value past the largest. */
function nextUp32(v: number): number {
  if (v === 0) return 2 ** -149;
  if (v >= 2 ** 128) return v;
  if (v === -(2 ** 128)) return -MAX_FLOAT32;
  if (v === MAX_FLOAT32) return 2 ** 128;
  f32[0] = v;
  u32[0] += v > 0 ? 1 : -1;
  return f32[0];
}

function isEven32(v: number): boolean {
  // The values past the largest are 2^128 (an even significand: its last bit is 0).
  if (Math.abs(v) === 2 ** 128) return true;
  f32[0] = v;
  return (u32[0] & 1) === 0;
}

function FLOAT32(dataType: DataType): FloatDomain {
  return {
    kind: "float",
    dataType,
    hasNaN: true,
    hasInfinity: true,
    hasNegativeZero: true,
    minFinite: -MAX_FLOAT32,
    maxFinite: MAX_FLOAT32,
    bracket: (x) => {
      const approx = Math.fround(Number(x));
      const finite = Number.isFinite(approx) ? approx : approx > 0 ? MAX_FLOAT32 : -MAX_FLOAT32;
      return bracketBy(x, finite, nextUp32, (v) => -nextUp32(-v), isEven32);
    },
  };
}

const f64 = new Float64Array(1);
const u64 = new BigUint64Array(f64.buffer);

function nextUp64(v: number): number {
  if (v === 0) return Number.MIN_VALUE;
  f64[0] = v;
  u64[0] += v > 0 ? 1n : -1n;
  return f64[0];
}

function FLOAT64(dataType: DataType): FloatDomain {
  return {
    kind: "float",
    dataType,
    hasNaN: true,
    hasInfinity: true,
    hasNegativeZero: true,
    minFinite: -Number.MAX_VALUE,
    maxFinite: Number.MAX_VALUE,
    // Only 64-bit integers are not already float64 values, and they are far inside its range.
    bracket: (x) =>
      typeof x === "number"
        ? x
        : bracketBy(
            x,
            Number(x),
            nextUp64,
            (v) => -nextUp64(-v),
            (v) => {
              f64[0] = v;
              return (u64[0] & 1n) === 0n;
            },
          ),
  };
}

/** A float type of at most 16 bits, by the values of all its bit patterns. */
function tableDomain(dataType: DataType): FloatDomain {
  const patterns = 2 ** (8 * dataType.itemSize);
  const bytes = new Uint8Array(patterns * dataType.itemSize);
  for (let p = 0; p < patterns; p++) {
    for (let b = 0; b < dataType.itemSize; b++)
      bytes[p * dataType.itemSize + b] = (p >> (8 * b)) & 0xff;
  }
  const decoded = dataType.decode(bytes, patterns, "little") as Container;
  const parity = new Map<number, boolean>();
  let hasNaN = false;
  let hasInfinity = false;
  let hasNegativeZero = false;
  for (let p = 0; p < patterns; p++) {
    const v = Number(dataType.getElement(decoded, p));
    if (Number.isNaN(v)) hasNaN = true;
    else if (!Number.isFinite(v)) hasInfinity = true;
    else {
      if (Object.is(v, -0)) hasNegativeZero = true;
      // The lowest bit of the pattern is the last significand digit.
      if (!parity.has(v)) parity.set(v, (p & 1) === 0);
    }
  }
  const values = Float64Array.from(parity.keys()).sort();
  const even = Uint8Array.from(values, (v) => (parity.get(v) ? 1 : 0));
  const n = values.length;
  // Past each end: one more step of the outermost spacing, with the other parity.
  const below = values[0] - (values[1] - values[0]);
  const above = values[n - 1] + (values[n - 1] - values[n - 2]);
  const valueAt = (i: number) => (i < 0 ? below : i >= n ? above : values[i]);
  const indexOf = (v: number) => (v === below ? -1 : v === above ? n : search(values, v));
  return {
    kind: "float",
    dataType,
    hasNaN,
    hasInfinity,
    hasNegativeZero,
    minFinite: values[0],
    maxFinite: values[n - 1],
    bracket: (x) => {
      if (typeof x === "number") {
        // Doubles compare exactly with the table: its neighbours are the bracket.
        // At or past the value beyond either end: out of range however it rounds.
        if (x <= below) return below;
        if (x >= above) return above;
        const i = search(values, x);
        if (i < n && values[i] === x) return x;
        if (i === 0) return { lo: below, hi: values[0], loEven: even[0] === 0 };
        if (i === n) return { lo: values[n - 1], hi: above, loEven: even[n - 1] === 1 };
        return { lo: values[i - 1], hi: values[i], loEven: even[i - 1] === 1 };
      }
      const approx = Number(x);
      const i = Math.min(search(values, approx), n - 1);
      return bracketBy(
        x,
        values[i],
        (v) => valueAt(Math.min(indexOf(v) + 1, n)),
        (v) => valueAt(Math.max(indexOf(v) - 1, -1)),
        (v) => {
          const j = indexOf(v);
          return j < 0 ? even[0] === 0 : j >= n ? even[n - 1] === 0 : even[j] === 1;
        },
      );
    },
  };
}

/** The first index whose value is at least `v` (binary search). */
function search(values: Float64Array, v: number): number {
  let lo = 0;
  let hi = values.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (values[mid] < v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
