// The largest finite value: private to the @z packages. minifloat-format.ts holds the public side, which the
// package entry re-exports whole.
import { signBit } from "./minifloat-codes.js";
import type { MiniFloatFormat } from "./minifloat-format.js";
import { decodeMiniFloat } from "./minifloat-format.js";

/** The largest finite value of a format. */
export function miniFloatMax(f: MiniFloatFormat): number {
  const sign = signBit(f);
  switch (f.specials) {
    case "ieee":
      return decodeMiniFloat(f, (2 ** f.exponentBits - 1) * 2 ** f.mantissaBits - 1);
    case "e8m0":
      return decodeMiniFloat(f, 0xfe);
    default:
      return decodeMiniFloat(f, sign - 1);
  }
}
