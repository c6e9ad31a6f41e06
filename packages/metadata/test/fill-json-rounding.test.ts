// The data type spec's rule for float fill values as JSON: a JSON number is rounded to the
// nearest value of the data type, ties to even; "NaN", "Infinity", "-Infinity" and "0x..." bit
// patterns denote what they say. Checked against an exact reference model: the decimal text as a
// rational of BigInts, rounded to the format by integer arithmetic alone.
//
// Reading is checked on texts that are exactly a double. A text with more precision than a
// double is first rounded to one by the JSON parser, and the fill value then rounded again to
// float32 or float16; where the first rounding lands exactly on a midpoint of the narrower format
// (e.g. "1.0000000596046448" for float32, a hair above 1 + 2^-24), the second one takes the even
// side instead of the nearer one. Fixing that needs the number's text at fill value parsing.
import { loadDataTypes, parseJson, resolveDataTypeV3, stringifyJson } from "@z/metadata";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";

beforeAll(() => loadDataTypes());

/** An IEEE 754 binary format: precision (with the implicit bit), least and greatest exponent. */
interface Format {
  readonly name: "float16" | "float32" | "float64";
  readonly precision: number;
  readonly emin: number;
  readonly emax: number;
}
const float16: Format = { name: "float16", precision: 11, emin: -14, emax: 15 };
const float32: Format = { name: "float32", precision: 24, emin: -126, emax: 127 };
const float64: Format = { name: "float64", precision: 53, emin: -1022, emax: 1023 };

const bitLength = (n: bigint) => n.toString(2).length;
const pow2 = (e: number) => 2n ** BigInt(Math.abs(e));

/** Whether num/den >= 2^e, for positive num and den. */
function atLeastPow2(num: bigint, den: bigint, e: number): boolean {
  return e >= 0 ? num >= den * pow2(e) : num * pow2(e) >= den;
}

/**
 * The reference model: a JSON number's text rounded to `format`, to nearest with ties to even,
 * overflowing to infinity; computed on the exact rational the text denotes.
 */
function roundDecimal(text: string, format: Format): number {
  const match = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(text);
  if (!match) throw new Error(`not a JSON number: ${text}`);
  const [, minus, whole, fraction = "", exponent = "0"] = match;
  const sign = minus ? -1 : 1;
  const tenPower = Number(exponent) - fraction.length;
  let num = BigInt(whole + fraction);
  let den = 1n;
  if (tenPower >= 0) num *= 10n ** BigInt(tenPower);
  else den = 10n ** BigInt(-tenPower);
  if (num === 0n) return sign * 0;
  // The binary exponent e with 2^e <= num/den < 2^(e+1).
  let e = bitLength(num) - bitLength(den);
  if (!atLeastPow2(num, den, e)) e--;
  // The quantum: the weight of the last mantissa bit at this exponent (fixed below emin).
  const q = Math.max(e, format.emin) - (format.precision - 1);
  const scaledNum = q < 0 ? num * pow2(q) : num;
  const scaledDen = q > 0 ? den * pow2(q) : den;
  let n = scaledNum / scaledDen;
  const twiceRest = 2n * (scaledNum % scaledDen);
  if (twiceRest > scaledDen || (twiceRest === scaledDen && n % 2n === 1n)) n++;
  // n may reach 2^precision after rounding up; that is 2^(e+1), still exact below.
  if (bitLength(n) + q > format.emax + 1) return sign * Number.POSITIVE_INFINITY;
  return sign * Number(n) * 2 ** q;
}

/** The exact decimal text of a finite double (no digit dropped), as a JSON number. */
function exactDecimal(x: number): string {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  const bits = view.getBigUint64(0);
  const biased = Number((bits >> 52n) & 0x7ffn);
  const fraction = bits & ((1n << 52n) - 1n);
  const sig = biased === 0 ? fraction : fraction | (1n << 52n);
  const exp = (biased === 0 ? 1 : biased) - 1075;
  const sign = bits >> 63n ? "-" : "";
  if (exp >= 0) return `${sign}${sig << BigInt(exp)}`;
  return `${sign}${sig * 5n ** BigInt(-exp)}e-${-exp}`;
}

/** A double built from a sign, an unbiased exponent in [min, max] and 52 fraction bits. */
const doubleWithExponent = (min: number, max: number) =>
  fc
    .record({
      negative: fc.boolean(),
      exponent: fc.integer({ min, max }),
      fraction: fc.bigInt({ min: 0n, max: (1n << 52n) - 1n }),
    })
    .map(({ negative, exponent, fraction }) => {
      const view = new DataView(new ArrayBuffer(8));
      const biased = BigInt(exponent + 1023);
      view.setBigUint64(0, (negative ? 1n << 63n : 0n) | (biased << 52n) | fraction);
      return view.getFloat64(0);
    });

/** The fill value a v3 `fill_value` of this JSON text reads as. */
function readFill(format: Format, text: string): number {
  const doc = parseJson(`{"fill_value": ${text}}`) as { fill_value: never };
  return resolveDataTypeV3(format.name).parseFill(doc.fill_value, 3) as number;
}

/** The JSON text a fill value is written as in v3 metadata. */
const writeFill = (format: Format, value: number) =>
  stringifyJson(resolveDataTypeV3(format.name).fillToJson(value, 3));

/** The float32 with these bits. */
function float32Of(bits: number): number {
  const view = new DataView(new ArrayBuffer(4));
  view.setUint32(0, bits);
  return view.getFloat32(0);
}
/** The float16 with these bits. */
const halfOf = (bits: number) => {
  const dt = resolveDataTypeV3("float16");
  return dt.getElement(dt.decode(Uint8Array.of(bits & 255, bits >> 8), 1, "little"), 0) as number;
};

describe("a JSON number read as a float fill value", () => {
  it("rounds to the nearest float32 and float16, ties to even (exact decimal texts)", () => {
    fc.assert(
      fc.property(doubleWithExponent(-160, 140), (x) => {
        const text = exactDecimal(x);
        expect(Object.is(readFill(float32, text), roundDecimal(text, float32))).toBe(true);
      }),
      { numRuns: 2000 },
    );
    fc.assert(
      fc.property(doubleWithExponent(-30, 20), (x) => {
        const text = exactDecimal(x);
        expect(Object.is(readFill(float16, text), roundDecimal(text, float16))).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it("takes the even neighbour at the exact midpoint of two float32 or float16 values", () => {
    // Below the largest finite value, each positive value and the next one up.
    const f32 = fc.integer({ min: 0, max: 0x7f7ffffe });
    fc.assert(
      fc.property(f32, fc.boolean(), (bits, negative) => {
        const [low, high] = [float32Of(bits), float32Of(bits + 1)];
        const even = bits % 2 === 0 ? low : high;
        const mid = (low + high) / 2; // exact in a double: one bit more than float32 holds
        const sign = negative ? -1 : 1;
        expect(readFill(float32, exactDecimal(sign * mid))).toBe(sign * even);
        expect(roundDecimal(exactDecimal(sign * mid), float32)).toBe(sign * even);
      }),
      { numRuns: 2000 },
    );
    for (let bits = 0; bits < 0x7bff; bits++) {
      const [low, high] = [halfOf(bits), halfOf(bits + 1)];
      const even = bits % 2 === 0 ? low : high;
      expect(readFill(float16, exactDecimal((low + high) / 2))).toBe(even);
    }
  });

  it("overflows to infinity from half an ulp above the largest finite value, not below", () => {
    for (const format of [float16, float32]) {
      const max = (2 - 2 ** (1 - format.precision)) * 2 ** format.emax;
      const halfUlp = 2 ** (format.emax - format.precision);
      expect(readFill(format, exactDecimal(max + halfUlp))).toBe(Number.POSITIVE_INFINITY);
      expect(readFill(format, exactDecimal(-(max + halfUlp)))).toBe(Number.NEGATIVE_INFINITY);
      expect(readFill(format, exactDecimal(max + halfUlp / 2))).toBe(max);
    }
  });
});

describe("a float fill value written to JSON", () => {
  const finite32 = fc
    .integer({ min: 0, max: 0xffffffff })
    .map(float32Of)
    .filter((x) => Number.isFinite(x));
  const finite64 = doubleWithExponent(-1022, 1023);

  it("is a number that rounds back to the same value (float16, float32, float64)", () => {
    const check = (format: Format, x: number) => {
      const text = writeFill(format, x);
      expect(Object.is(roundDecimal(text, format), x)).toBe(true);
      expect(Object.is(readFill(format, text), x)).toBe(true);
    };
    fc.assert(fc.property(finite32, (x) => check(float32, x)));
    fc.assert(fc.property(finite64, (x) => check(float64, x)));
    for (let bits = 0; bits < 0x10000; bits++) {
      const x = halfOf(bits);
      if (Number.isFinite(x)) check(float16, x);
    }
  });

  it("is the shortest decimal that reads back as the same double", () => {
    // The spec asks only that the number round to the value; a float32 is written as the
    // shortest decimal of its exact double (0.1f as 0.10000000149011612), which every reader
    // rounds back to it. -0 is "-0.0" so that readers keep its sign.
    const shortest = (x: number) => (Object.is(x, -0) ? "-0.0" : String(x));
    fc.assert(
      fc.property(finite64, (x) => {
        expect(writeFill(float64, x)).toBe(shortest(x));
      }),
    );
    fc.assert(
      fc.property(finite32, (x) => {
        expect(writeFill(float32, x)).toBe(shortest(x));
      }),
    );
  });

  it('writes infinities and the usual NaN as strings, and reads the "0x" bit patterns', () => {
    for (const format of [float16, float32, float64]) {
      expect(writeFill(format, Number.POSITIVE_INFINITY)).toBe('"Infinity"');
      expect(writeFill(format, Number.NEGATIVE_INFINITY)).toBe('"-Infinity"');
      expect(writeFill(format, Number.NaN)).toBe('"NaN"');
      expect(readFill(format, '"Infinity"')).toBe(Number.POSITIVE_INFINITY);
      expect(readFill(format, '"-Infinity"')).toBe(Number.NEGATIVE_INFINITY);
      expect(readFill(format, '"NaN"')).toBeNaN();
    }
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 0xffff }), (bits) => {
        const hex = `"0x${bits.toString(16).padStart(4, "0")}"`;
        const x = halfOf(bits);
        if (Number.isNaN(x)) expect(readFill(float16, hex)).toBeNaN();
        else expect(Object.is(readFill(float16, hex), x)).toBe(true);
      }),
    );
    fc.assert(
      fc.property(finite32, (x) => {
        const view = new DataView(new ArrayBuffer(4));
        view.setFloat32(0, x);
        const hex = `"0x${view.getUint32(0).toString(16).padStart(8, "0")}"`;
        expect(Object.is(readFill(float32, hex), x)).toBe(true);
      }),
    );
  });
});
