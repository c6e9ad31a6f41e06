/**
 * One element cast to another numeric type by value, as `cast_value` defines it: exact values
 * stay, others are rounded by a rounding mode, then values out of range are clamped, wrapped
 * or refused. NaN and ±Infinity go only to types that have them.
 */
import type { Bracket, NumericDomain, NumericScalar } from "./numeric-domain.js";

/** How values between two representable ones are rounded. */
export type RoundingMode =
  | "nearest-even"
  | "towards-zero"
  | "towards-positive"
  | "towards-negative"
  | "nearest-away";

/** The rounding modes, in the order the spec lists them. */
export const ROUNDING_MODES: readonly RoundingMode[] = [
  "nearest-even",
  "towards-zero",
  "towards-positive",
  "towards-negative",
  "nearest-away",
];

/** What happens to values beyond the target's range: clamped, wrapped, or an error. */
export type OutOfRange = "clamp" | "wrap" | undefined;

/** A value the cast cannot map (the codec turns it into its typed error). */
export class CastFailure {
  constructor(readonly reason: string) {}
}

/** A cast of one element; throws {@link CastFailure}. */
export type ElementCast = (value: NumericScalar) => NumericScalar;

/** The cast of any numeric value to `to`. `wrap` must only be given for integer targets. */
export function elementCast(
  to: NumericDomain,
  rounding: RoundingMode,
  outOfRange: OutOfRange,
): ElementCast {
  return to.kind === "integer"
    ? (x) => castToInteger(x, to, rounding, outOfRange)
    : (x) => castToFloat(x, to, rounding, outOfRange);
}

/** The neighbour of `x` (strictly between `lo` and `hi`) that `mode` picks. */
function pick(x: NumericScalar, { lo, hi, loEven }: Bracket, mode: RoundingMode): number {
  const positive = typeof x === "bigint" ? x > 0n : x > 0;
  switch (mode) {
    case "towards-zero":
      return positive ? lo : hi;
    case "towards-positive":
      return hi;
    case "towards-negative":
      return lo;
    default: {
      // 2x against lo + hi: exact (lo + hi has few bits, or both are integers for bigints).
      const side =
        typeof x === "bigint" ? sign(2n * x - (BigInt(lo) + BigInt(hi))) : sign(2 * x - (lo + hi));
      if (side !== 0) return side < 0 ? lo : hi;
      if (mode === "nearest-even") return loEven ? lo : hi;
      return positive ? hi : lo;
    }
  }
}

const sign = (v: number | bigint): number => (v > 0 ? 1 : v < 0 ? -1 : 0);

/** Small bigints are exact numbers: the number paths are the fast ones. */
const normalise = (x: NumericScalar): NumericScalar =>
  typeof x === "bigint" && x >= -(2n ** 53n) && x <= 2n ** 53n ? Number(x) : x;

function describe(x: NumericScalar): string {
  return typeof x === "bigint" ? x.toString() : Object.is(x, -0) ? "-0" : String(x);
}

function castToFloat(
  input: NumericScalar,
  to: NumericDomain & { kind: "float" },
  rounding: RoundingMode,
  outOfRange: OutOfRange,
): number {
  const x = normalise(input);
  if (typeof x === "number") {
    if (Number.isNaN(x)) {
      if (to.hasNaN) return x;
      throw new CastFailure(`NaN has no ${to.dataType.name} value`);
    }
    if (!Number.isFinite(x)) {
      if (to.hasInfinity) return x;
      throw new CastFailure(`${x} has no ${to.dataType.name} value`);
    }
    if (x === 0) {
      // Signed zero is kept where the type has one; its numerical value is 0 either way.
      if (Object.is(x, -0) && to.hasNegativeZero) return -0;
      const zero = to.bracket(0.0);
      if (zero === 0) return 0;
    }
  }
  const bracket = to.bracket(x);
  const rounded = typeof bracket === "number" ? bracket : pick(x, bracket, rounding);
  if (rounded >= to.minFinite && rounded <= to.maxFinite) {
    // A negative value rounded to zero is -0, as IEEE 754 rounds it (where the type has -0).
    return rounded === 0 && x < 0 && to.hasNegativeZero ? -0 : rounded;
  }
  if (outOfRange === "clamp") {
    if (to.hasInfinity) return rounded > 0 ? Infinity : -Infinity;
    return rounded > 0 ? to.maxFinite : to.minFinite;
  }
  throw new CastFailure(
    `${describe(input)} is outside the range ${to.minFinite}..${to.maxFinite} of ${to.dataType.name}` +
      ` (set "out_of_range": "clamp" to clamp it)`,
  );
}

function castToInteger(
  input: NumericScalar,
  to: NumericDomain & { kind: "integer" },
  rounding: RoundingMode,
  outOfRange: OutOfRange,
): NumericScalar {
  const x = normalise(input);
  let value: bigint;
  if (typeof x === "number") {
    if (!Number.isFinite(x)) throw new CastFailure(`${x} has no ${to.dataType.name} value`);
    let rounded = x;
    if (!Number.isInteger(x)) {
      const lo = Math.floor(x);
      rounded = pick(x, { lo, hi: lo + 1, loEven: lo % 2 === 0 }, rounding);
    }
    // The common case: a number in range, no bigint arithmetic.
    if (!to.big && rounded >= Number(to.min) && rounded <= Number(to.max)) return rounded + 0;
    value = BigInt(rounded);
  } else {
    value = x;
  }
  if (value < to.min || value > to.max) {
    if (outOfRange === "wrap") {
      value = to.signed ? BigInt.asIntN(to.bits, value) : BigInt.asUintN(to.bits, value);
    } else if (outOfRange === "clamp") {
      value = value < to.min ? to.min : to.max;
    } else {
      throw new CastFailure(
        `${describe(input)} is outside the range ${to.min}..${to.max} of ${to.dataType.name}` +
          ` (set "out_of_range" to "clamp" or "wrap" to map it)`,
      );
    }
  }
  return to.big ? value : Number(value);
}
