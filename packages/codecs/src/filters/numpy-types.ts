/**
 * The NumPy numeric types the numcodecs filters compute in, and NumPy's rules for them:
 * type promotion (with NumPy 1.x value-based promotion of Python scalars), casts (`astype`,
 * including the wrap-around and out-of-range results of x86-64 builds) and arithmetic with
 * NumPy's rounding (float16 operations go through float32, as NumPy's loops do).
 *
 * Scalars are numbers, or bigints for 64-bit integer types; bool is 0 or 1.
 */
import { halfToNumber, numberToHalf } from "@z/ndarray";
import type { NumericKind, NumericType } from "./types.js";

export type { NumericKind, NumericType };

/** One element of a numeric container: a number, or a bigint for 64-bit integer types. */
export type Scalar = number | bigint;

const make = (name: string, kind: NumericKind, bits: number): NumericType => ({ name, kind, bits });

/** The numeric types by v3 name. */
export const NUMERIC_TYPES: Readonly<Record<string, NumericType>> = Object.fromEntries(
  [
    make("bool", "bool", 8),
    make("int8", "int", 8),
    make("int16", "int", 16),
    make("int32", "int", 32),
    make("int64", "int", 64),
    make("uint8", "uint", 8),
    make("uint16", "uint", 16),
    make("uint32", "uint", 32),
    make("uint64", "uint", 64),
    make("float16", "float", 16),
    make("float32", "float", 32),
    make("float64", "float", 64),
  ].map((t) => [t.name, t]),
);

/** The numeric type of a data type name, or `undefined` for non-numeric types. */
export function numericType(name: string): NumericType | undefined {
  return Object.hasOwn(NUMERIC_TYPES, name) ? NUMERIC_TYPES[name] : undefined;
}

const typeOf = (kind: NumericKind, bits: number): NumericType =>
  NUMERIC_TYPES[kind === "bool" ? "bool" : `${kind}${bits}`];

/** Whether elements of the type are bigints (64-bit integers). */
export function isBigIntType(type: NumericType): boolean {
  return type.bits === 64 && type.kind !== "float";
}

/** NumPy's `promote_types` for two numeric types. */
export function promoteTypes(a: NumericType, b: NumericType): NumericType {
  if (a.name === b.name) return a;
  if (a.kind === "bool") return b;
  if (b.kind === "bool") return a;
  if (a.kind === "float" && b.kind === "float") return a.bits >= b.bits ? a : b;
  if (a.kind === "float" || b.kind === "float") {
    const [float, integer] = a.kind === "float" ? [a, b] : [b, a];
    // The narrowest float holding every value of the integer type, as NumPy's table has it.
    const needed = integer.bits <= 8 ? 16 : integer.bits <= 16 ? 32 : 64;
    return typeOf("float", Math.max(float.bits, needed));
  }
  if (a.kind === b.kind) return a.bits >= b.bits ? a : b;
  const [signed, unsigned] = a.kind === "int" ? [a, b] : [b, a];
  if (unsigned.bits < signed.bits) return signed;
  return unsigned.bits < 64 ? typeOf("int", unsigned.bits * 2) : NUMERIC_TYPES.float64;
}

/** A Python scalar operand as a configuration gives it: integral numbers are Python ints. */
export interface PythonScalar {
  /** The value. */
  value: number;
  /** Whether it is a Python int (JSON cannot tell `1000` from `1000.0`; integral means int). */
  isInteger: boolean;
}

/** Whether a Python int fits the 64-bit range NumPy 1.x handles without object arrays. */
export function pythonIntInRange(value: number): boolean {
  return value >= -(2 ** 63) && value < 2 ** 64;
}

/**
 * The result type of `array <op> scalar` under NumPy 1.x value-based casting: a Python int
 * takes the smallest type holding its value (a non-negative one that also fits the signed
 * type of that size counts as signed against signed arrays), a Python float the smallest
 * float by range against float arrays and float64 against integer arrays.
 */
export function promoteWithScalar(array: NumericType, scalar: PythonScalar): NumericType {
  const { value } = scalar;
  if (!scalar.isInteger) {
    if (array.kind !== "float") return NUMERIC_TYPES.float64;
    const bits =
      !Number.isFinite(value) || Math.abs(value) < 65000 ? 16 : Math.abs(value) < 3.4e38 ? 32 : 64;
    return promoteTypes(array, typeOf("float", bits));
  }
  let smallest: NumericType;
  if (value < 0) {
    const bits = value >= -(2 ** 7) ? 8 : value >= -(2 ** 15) ? 16 : value >= -(2 ** 31) ? 32 : 64;
    smallest = typeOf("int", bits);
  } else {
    const bits = value < 2 ** 8 ? 8 : value < 2 ** 16 ? 16 : value < 2 ** 32 ? 32 : 64;
    const fitsSigned = value < 2 ** (bits - 1);
    smallest = typeOf(fitsSigned && array.kind === "int" ? "int" : "uint", bits);
  }
  if (array.kind === "bool") return smallest;
  return promoteTypes(array, smallest);
}

/** Rounds a number to IEEE half precision, to nearest even (held as a number). */
export function roundToHalf(value: number): number {
  // A NaN stays the NaN it is (its sign survives, as through NumPy's float16 conversion).
  return Number.isNaN(value) ? value : halfToNumber(numberToHalf(value));
}

/** The function rounding a double to a float type of `bits` bits. */
function floatRounder(bits: number): (value: number) => number {
  if (bits === 32) return Math.fround;
  if (bits === 16) return roundToHalf;
  return (value) => value;
}

/** Rounds to the nearest integer, halves to even (`numpy.rint`, `numpy.around`). */
export function roundHalfEven(value: number): number {
  const rounded = Math.round(value);
  // Math.round sends halves up; NumPy sends them to the even neighbour.
  return rounded - value === 0.5 && rounded % 2 !== 0 ? rounded - 1 : rounded;
}

/** The exact float32 nearest a bigint (one rounding, as a C `(float)` cast does). */
export function bigintToFloat32(value: bigint): number {
  const magnitude = value < 0n ? -value : value;
  if (magnitude <= 2n ** 53n) return Math.fround(Number(value));
  // Keep 24 bits plus a guard bit and a sticky bit, so the float32 rounding is the only one.
  const shift = BigInt(magnitude.toString(2).length - 26);
  let top = magnitude >> shift;
  if (top << shift !== magnitude) top |= 1n;
  const rounded = Math.fround(Number(top) * 2 ** Number(shift));
  return value < 0n ? -rounded : rounded;
}

/** Wraps an integral number to an integer type of at most 32 bits (two's complement). */
function wrapper(type: NumericType): (value: number) => number {
  const signed = type.kind === "int";
  switch (type.bits) {
    case 8:
      return signed ? (v) => (v << 24) >> 24 : (v) => v & 0xff;
    case 16:
      return signed ? (v) => (v << 16) >> 16 : (v) => v & 0xffff;
    default:
      return signed ? (v) => v | 0 : (v) => v >>> 0;
  }
}

/** Wraps a bigint to a 64-bit integer type. */
function bigWrapper(type: NumericType): (value: bigint) => bigint {
  return type.kind === "int" ? (v) => BigInt.asIntN(64, v) : (v) => BigInt.asUintN(64, v);
}

const INT32_MIN = -(2 ** 31);
const INT64_MIN = -(2n ** 63n);

// x86-64 truncating conversions (cvttsd2si): NaN and out-of-range values give the minimum.
function truncateToInt32(value: number): number {
  return value >= INT32_MIN && value < 2 ** 31 ? Math.trunc(value) | 0 : INT32_MIN;
}

function truncateToInt64(value: number): bigint {
  return value >= -(2 ** 63) && value < 2 ** 63 ? BigInt(Math.trunc(value)) : INT64_MIN;
}

/**
 * Float to integer as NumPy's casts behave on x86-64 (measured against NumPy 1.24): types up
 * to 32 bits go through a truncating int32 conversion and keep the low bits; uint32 and uint64
 * convert values from 2^31 (2^63) up by subtracting it first (float16 to uint32 goes through
 * int64 instead); NaN and out-of-range values give the conversion's "integer indefinite" value.
 */
function floatToInteger(from: NumericType, to: NumericType): (value: Scalar) => Scalar {
  if (to.bits === 64) {
    if (to.kind === "int") return (v) => truncateToInt64(v as number);
    return (v) => {
      const x = v as number;
      return x >= 2 ** 63
        ? BigInt.asUintN(64, truncateToInt64(x - 2 ** 63) ^ INT64_MIN)
        : BigInt.asUintN(64, truncateToInt64(x));
    };
  }
  if (to.bits === 32 && to.kind === "uint") {
    // From float16 NumPy truncates through int64 and keeps the low half: NaN and inf give 0.
    if (from.bits === 16) return (v) => (Number.isFinite(v) ? Math.trunc(v as number) >>> 0 : 0);
    return (v) => {
      const x = v as number;
      return x >= 2 ** 31
        ? (truncateToInt32(x - 2 ** 31) ^ INT32_MIN) >>> 0
        : truncateToInt32(x) >>> 0;
    };
  }
  const wrap = wrapper(to);
  return (v) => wrap(truncateToInt32(v as number));
}

const identity = (value: Scalar): Scalar => value;

/** NumPy's `astype` from one numeric type to another, as a function of one element. */
export function converter(from: NumericType, to: NumericType): (value: Scalar) => Scalar {
  if (from.name === to.name) return identity;
  const fromBig = isBigIntType(from);
  if (to.kind === "bool") return fromBig ? (v) => (v !== 0n ? 1 : 0) : (v) => (v !== 0 ? 1 : 0);
  if (to.kind === "float") {
    const round = floatRounder(to.bits);
    if (!fromBig) return round as (value: Scalar) => Scalar;
    if (to.bits === 32) return (v) => bigintToFloat32(v as bigint);
    return (v) => round(Number(v));
  }
  if (from.kind === "float") return floatToInteger(from, to);
  if (to.bits === 64) {
    const wrap = bigWrapper(to);
    return fromBig ? (v) => wrap(v as bigint) : (v) => wrap(BigInt(v));
  }
  const wrap = wrapper(to);
  if (fromBig) {
    return to.kind === "int"
      ? (v) => Number(BigInt.asIntN(to.bits, v as bigint))
      : (v) => Number(BigInt.asUintN(to.bits, v as bigint));
  }
  return (v) => wrap(v as number);
}

/** NumPy arithmetic within one numeric type (results wrap or round as NumPy's do). */
export interface Arithmetic {
  /** `a + b` (logical or for bool). */
  add(a: Scalar, b: Scalar): Scalar;
  /** `a - b`; for bool the `not_equal` that `numpy.diff` uses. */
  sub(a: Scalar, b: Scalar): Scalar;
  /** `a * b`. */
  mul(a: Scalar, b: Scalar): Scalar;
  /** `a / b` (float types only). */
  div(a: Scalar, b: Scalar): Scalar;
  /** `numpy.around(a)`: round half to even for floats, the value itself for integers. */
  around(a: Scalar): Scalar;
  /** A Python scalar converted to this type, as NumPy converts an operand. */
  fromPython(value: number): Scalar;
}

/** The arithmetic of a numeric type. */
export function arithmetic(type: NumericType): Arithmetic {
  if (type.kind === "float") {
    const round = floatRounder(type.bits);
    // NumPy computes float16 operations in float32 and rounds the result to float16.
    const result = type.bits === 16 ? (v: number) => roundToHalf(Math.fround(v)) : round;
    return {
      add: (a, b) => result((a as number) + (b as number)),
      sub: (a, b) => result((a as number) - (b as number)),
      mul: (a, b) => result((a as number) * (b as number)),
      div: (a, b) => result((a as number) / (b as number)),
      around: (a) => roundHalfEven(a as number),
      fromPython: (value) => round(value),
    };
  }
  const noDivision = (): never => {
    throw new TypeError(`integer division is not defined for ${type.name} here`);
  };
  if (type.kind === "bool") {
    return {
      add: (a, b) => (a || b ? 1 : 0),
      sub: (a, b) => (a !== b ? 1 : 0),
      mul: (a, b) => (a && b ? 1 : 0),
      div: noDivision,
      around: identity,
      fromPython: (value) => (value !== 0 ? 1 : 0),
    };
  }
  if (type.bits === 64) {
    const wrap = bigWrapper(type);
    return {
      add: (a, b) => wrap((a as bigint) + (b as bigint)),
      sub: (a, b) => wrap((a as bigint) - (b as bigint)),
      mul: (a, b) => wrap((a as bigint) * (b as bigint)),
      div: noDivision,
      around: identity,
      fromPython: (value) => wrap(BigInt(value)),
    };
  }
  const wrap = wrapper(type);
  return {
    add: (a, b) => wrap((a as number) + (b as number)),
    sub: (a, b) => wrap((a as number) - (b as number)),
    mul: (a, b) => wrap(Math.imul(a as number, b as number)),
    div: noDivision,
    around: identity,
    fromPython: (value) => wrap(value),
  };
}
