// Element containers and byte order: the bool view, half precision without Float16Array, and
// byte swapping, each against a simple model.
import {
  BoolArray,
  bytesOf,
  halfToNumber,
  isTypedArray,
  LITTLE_ENDIAN_HOST,
  NativeFloat16Array,
  needsSwap,
  numberToHalf,
  swapBytesInPlace,
} from "@z/ndarray";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

describe("BoolArray", () => {
  it("property: holds 0s and 1s and gives the booleans back", () => {
    fc.assert(
      fc.property(fc.array(fc.boolean()), (values) => {
        const bools = BoolArray.fromBooleans(values);
        expect(bools).toBeInstanceOf(Uint8Array);
        expect(Array.from(bools)).toEqual(values.map((v) => (v ? 1 : 0)));
        expect(bools.toBooleans()).toEqual(values);
        values.forEach((v, i) => {
          expect(bools.get(i)).toBe(v);
          bools.setBool(i, !v);
          expect(bools[i]).toBe(v ? 0 : 1);
        });
      }),
    );
  });
});

describe("half precision", () => {
  it("property: every half code decodes to a number that encodes back to it (NaNs to the quiet NaN)", () => {
    for (let code = 0; code < 0x10000; code++) {
      const value = halfToNumber(code);
      const notANumber = (code & 0x7c00) === 0x7c00 && (code & 0x3ff) !== 0;
      expect(Number.isNaN(value)).toBe(notANumber);
      expect(numberToHalf(value)).toBe(notANumber ? 0x7e00 : code);
    }
  });

  it("rounds to nearest even, overflows to infinity and keeps the sign of zero", () => {
    expect(numberToHalf(1 + 2 ** -11)).toBe(0x3c00); // halfway between 1 and the next: even
    expect(numberToHalf(1 + 3 * 2 ** -11)).toBe(0x3c02);
    expect(numberToHalf(65504)).toBe(0x7bff);
    expect(numberToHalf(65520)).toBe(0x7c00);
    expect(numberToHalf(-1e9)).toBe(0xfc00);
    expect(numberToHalf(-0)).toBe(0x8000);
    expect(numberToHalf(2 ** -25)).toBe(0); // halfway to the smallest subnormal: even
  });

  it("agrees with the runtime's Float16Array where there is one", () => {
    const Float16 = NativeFloat16Array;
    if (!Float16) {
      expect("Float16Array" in globalThis).toBe(false);
      return;
    }
    fc.assert(
      fc.property(fc.double(), (value) => {
        const native = new Float16(1);
        native[0] = value;
        const code = new Uint16Array(native.buffer)[0];
        expect(numberToHalf(value)).toBe(Number.isNaN(value) ? 0x7e00 : code);
      }),
    );
  });
});

describe("byte order", () => {
  it("property: swapping reverses each element's bytes and twice is the identity", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), fc.constantFrom(1, 2, 4, 8), (bytes, size) => {
        const swapped = bytes.slice();
        swapBytesInPlace(swapped, size);
        const whole = bytes.length - (bytes.length % size);
        for (let i = 0; i < bytes.length; i++) {
          const base = i - (i % size);
          const expected = i < whole ? bytes[base + size - 1 - (i - base)] : bytes[i];
          expect(swapped[i]).toBe(expected);
        }
        swapBytesInPlace(swapped, size);
        expect(swapped).toEqual(bytes);
      }),
    );
  });

  it("swaps only multi-byte elements stored in the other byte order", () => {
    const foreign = LITTLE_ENDIAN_HOST ? "big" : "little";
    const native = LITTLE_ENDIAN_HOST ? "little" : "big";
    expect(needsSwap(foreign, 4)).toBe(true);
    expect(needsSwap(native, 4)).toBe(false);
    expect(needsSwap(foreign, 1)).toBe(false);
    expect(new Uint8Array(Uint16Array.of(1).buffer)[0] === 1).toBe(LITTLE_ENDIAN_HOST);
  });

  it("views a TypedArray's bytes without copying", () => {
    const buffer = new ArrayBuffer(16);
    const words = new Uint32Array(buffer, 4, 2);
    const bytes = bytesOf(words);
    expect(bytes.buffer).toBe(buffer);
    expect([bytes.byteOffset, bytes.length]).toEqual([4, 8]);
    expect(isTypedArray(words)).toBe(true);
    expect(isTypedArray(new DataView(buffer))).toBe(false);
    expect(isTypedArray([1, 2])).toBe(false);
  });
});
