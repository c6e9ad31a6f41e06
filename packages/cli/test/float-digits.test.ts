import { halfToNumber, numberToHalf } from "@z/zarr";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { shortestFloat } from "../src/float-digits.js";

/** Significant digits of a decimal number's shortest form. */
function significantDigits(x: number): number {
  const mantissa = Math.abs(x).toExponential().split("e")[0];
  return mantissa.replace(".", "").length;
}

describe("shortestFloat", () => {
  it("reads back as the same float32, and no shorter decimal does", () => {
    fc.assert(
      fc.property(fc.float({ noNaN: true }), (x) => {
        const y = shortestFloat(x, 32);
        expect(Math.fround(y)).toBe(x);
        const digits = significantDigits(y);
        expect(digits).toBeLessThanOrEqual(9);
        if (digits > 1 && Number.isFinite(x)) {
          expect(Math.fround(Number(x.toPrecision(digits - 1)))).not.toBe(x);
        }
      }),
      { numRuns: 5000 },
    );
  });

  it("reads back as the same float16 for every finite half-precision value", () => {
    for (let bits = 0; bits < 0x10000; bits++) {
      const x = halfToNumber(bits);
      if (!Number.isFinite(x)) continue;
      const y = shortestFloat(x, 16);
      const back = numberToHalf(y);
      expect(back === bits || (x === 0 && halfToNumber(back) === 0)).toBe(true);
      expect(significantDigits(y)).toBeLessThanOrEqual(5);
    }
  });

  it("keeps doubles, zero and non-finite values as they are", () => {
    expect(shortestFloat(0.1 + 0.2, 64)).toBe(0.1 + 0.2);
    expect(shortestFloat(Math.fround(0.1), 32)).toBe(0.1);
    expect(Object.is(shortestFloat(-0, 32), -0)).toBe(true);
    expect(shortestFloat(Number.NEGATIVE_INFINITY, 32)).toBe(Number.NEGATIVE_INFINITY);
    expect(shortestFloat(Number.NaN, 16)).toBeNaN();
  });
});
