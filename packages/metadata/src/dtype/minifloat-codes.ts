// The special codes of a format: private to the @z packages. minifloat-format.ts holds the public side, which the
// package entry re-exports whole.
import type { MiniFloatFormat } from "./minifloat-format.js";

/** The code of the sign bit (0 for the unsigned `e8m0` format). */
export function signBit(f: MiniFloatFormat): number {
  return f.specials === "e8m0" ? 0 : 2 ** (f.bits - 1);
}

/** The canonical NaN code a format writes (the one its spec names for the fill value `"NaN"`). */
export function miniFloatNaNCode(f: MiniFloatFormat): number | undefined {
  switch (f.specials) {
    case "ieee":
      return (((2 ** f.exponentBits - 1) << f.mantissaBits) | (1 << (f.mantissaBits - 1))) >>> 0;
    case "fnuz":
      return signBit(f);
    case "e8m0":
      return 0xff;
    default:
      return undefined;
  }
}

/** Whether a format has NaN, ±Infinity, and -0. */
export function miniFloatHas(f: MiniFloatFormat): {
  nan: boolean;
  infinity: boolean;
  negativeZero: boolean;
} {
  return {
    nan: f.specials !== "fn",
    infinity: f.specials === "ieee",
    negativeZero: f.specials === "ieee" || f.specials === "fn",
  };
}
