// complex_float16 stores each part as an IEEE half (1 sign, 5 exponent, 10 mantissa bits), not
// as bfloat16, the other 2-byte format the minifloat codec serves. The reference model is
// halfToNumber, the float16 element decoder, checked on its own against NumPy elsewhere.

import { loadDataTypes, resolveDataTypeV3 } from "@z/metadata";
import { halfToNumber } from "@z/ndarray";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";

beforeAll(() => loadDataTypes());

const complexHalf = () => resolveDataTypeV3("complex_float16");

/** Stored bytes of parts given as half codes, in the requested byte order. */
function stored(codes: number[], endian: "little" | "big"): Uint8Array {
  const view = new DataView(new ArrayBuffer(2 * codes.length));
  for (const [i, code] of codes.entries()) view.setUint16(2 * i, code, endian === "little");
  return new Uint8Array(view.buffer);
}

describe("complex_float16", () => {
  it("reads [0.5, 0.25] as written by zarrs (0x3800, 0x3400 little-endian)", () => {
    const dt = complexHalf();
    const data = dt.decode(Uint8Array.from([0x00, 0x38, 0x00, 0x34]), 1, "little");
    expect(dt.getElement(data, 0)).toEqual({ re: 0.5, im: 0.25 });
  });

  it("decodes every pair of half codes as IEEE halves, in both byte orders", () => {
    const dt = complexHalf();
    const code = fc.integer({ min: 0, max: 0xffff });
    fc.assert(
      fc.property(
        fc.array(fc.tuple(code, code), { minLength: 1, maxLength: 16 }),
        fc.boolean(),
        (pairs, little) => {
          const endian = little ? "little" : "big";
          const data = dt.decode(stored(pairs.flat(), endian), pairs.length, endian);
          pairs.forEach(([re, im], i) => {
            expect(dt.getElement(data, i)).toEqual({ re: halfToNumber(re), im: halfToNumber(im) });
          });
        },
      ),
    );
  });

  it("writes back the codes it read, for every non-NaN half", () => {
    const dt = complexHalf();
    const finiteOrInfinite = fc
      .integer({ min: 0, max: 0xffff })
      .filter((c) => !Number.isNaN(halfToNumber(c)));
    fc.assert(
      fc.property(fc.array(finiteOrInfinite, { minLength: 2, maxLength: 32 }), (codes) => {
        const even = codes.slice(0, codes.length - (codes.length % 2));
        const bytes = stored(even, "little");
        const data = dt.decode(bytes, even.length / 2, "little");
        expect([...dt.encode(data, "little")]).toEqual([...bytes]);
      }),
    );
  });
});
