// Shared inside the @z packages, not public: the largest finite value, kept out of minifloat-format.ts, which the index
// re-exports whole so the build can turn it into `export *` (tools/build/split-friendly-barrels.mjs).
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
