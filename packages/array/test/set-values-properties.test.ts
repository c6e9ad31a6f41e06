import {
  bool,
  complex64,
  complex128,
  type DataType,
  datetime64,
  fixedLengthUnicode,
  float16,
  float32,
  float64,
  int8,
  int16,
  int32,
  int64,
  NAT,
  nullTerminatedBytes,
  timedelta64,
  uint8,
  uint16,
  uint32,
  uint64,
  ValueTypeError,
} from "@z/metadata";
import { halfToNumber, numberToHalf } from "@z/ndarray";
import { isZarrError } from "@z/store-core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { elementAt, mapStoreArray } from "./map-store-array.js";

const RUNS = Number(process.env.PROPERTY_RUNS ?? 150);

/** The reference rule's verdict: the value stored, or an error. */
type Verdict = { stored: unknown } | "error";

const INT_RANGES: Record<string, [bigint, bigint]> = {
  int8: [-128n, 127n],
  int16: [-32768n, 32767n],
  int32: [-(2n ** 31n), 2n ** 31n - 1n],
  int64: [-(2n ** 63n), 2n ** 63n - 1n],
  uint8: [0n, 255n],
  uint16: [0n, 65535n],
  uint32: [0n, 2n ** 32n - 1n],
  uint64: [0n, 2n ** 64n - 1n],
};

const FLOAT_ROUND: Record<string, (x: number) => number> = {
  float16: (x) => halfToNumber(numberToHalf(x)),
  float32: Math.fround,
  float64: (x) => x,
};

/** The integer a value stands for, if it is one exactly (numbers only up to 2^53). */
function exactInteger(value: unknown): bigint | undefined {
  if (typeof value === "bigint") return value;
  if (typeof value === "boolean") return value ? 1n : 0n;
  if (typeof value === "number" && Number.isSafeInteger(value)) return BigInt(value);
  return undefined;
}

/** The real number a value stands for, for float types. */
function real(value: unknown): number | undefined {
  if (typeof value === "number") return value;
  if (typeof value === "bigint") return Number(value);
  if (typeof value === "boolean") return value ? 1 : 0;
  return undefined;
}

function rounded(name: string, x: number): number | undefined {
  const r = FLOAT_ROUND[name](x);
  return Number.isFinite(x) && !Number.isFinite(r) ? undefined : r;
}

/** The policy of the README, written as plainly as possible. */
function reference(dataType: DataType, value: unknown): Verdict {
  const name = dataType.name;
  if (name in INT_RANGES) {
    const [min, max] = INT_RANGES[name];
    const n = exactInteger(value);
    if (n === undefined || n < min || n > max) return "error";
    return { stored: name.endsWith("64") ? n : Number(n) };
  }
  if (name in FLOAT_ROUND) {
    const x = real(value);
    const r = x === undefined ? undefined : rounded(name, x);
    return r === undefined ? "error" : { stored: r };
  }
  if (name === "bool") {
    if (typeof value === "boolean") return { stored: value };
    if (value === 0 || value === 0n) return { stored: false };
    if (value === 1 || value === 1n) return { stored: true };
    return "error";
  }
  if (name === "complex64" || name === "complex128") {
    const part = name === "complex64" ? "float32" : "float64";
    let re = real(value);
    let im: unknown = 0;
    if (re === undefined && typeof value === "object" && value !== null && !Array.isArray(value)) {
      const c = value as { re?: unknown; im?: unknown };
      re = typeof c.re === "number" ? c.re : undefined;
      im = c.im;
    }
    if (re === undefined || typeof im !== "number") return "error";
    const r = rounded(part, re);
    const i = rounded(part, im);
    return r === undefined || i === undefined ? "error" : { stored: { re: r, im: i } };
  }
  if (dataType.kind === "datetime" || dataType.kind === "timedelta") {
    if (value === null || value === "NaT") return { stored: NAT };
    if (typeof value === "bigint")
      return value >= -(2n ** 63n) && value < 2n ** 63n ? { stored: value } : "error";
    if (typeof value === "number")
      return Number.isSafeInteger(value) ? { stored: BigInt(value) } : "error";
    if (dataType.kind === "datetime" && value instanceof Date) {
      const ms = value.getTime();
      return { stored: Number.isNaN(ms) ? NAT : BigInt(Math.floor(ms / 1000)) };
    }
    return "error";
  }
  if (name.startsWith("fixed_length_utf32")) {
    if (typeof value !== "string" || [...value].length > 4) return "error";
    return { stored: value.replace(/\0+$/, "") };
  }
  if (name.startsWith("null_terminated_bytes")) {
    if (typeof value !== "string") return "error";
    const bytes = new TextEncoder().encode(value);
    if (bytes.length > 4) return "error";
    let end = bytes.length;
    while (end > 0 && bytes[end - 1] === 0) end--;
    return { stored: bytes.slice(0, end) };
  }
  throw new Error(`no reference rule for ${name}`);
}

const DATA_TYPES: DataType[] = [
  int8,
  int16,
  int32,
  int64,
  uint8,
  uint16,
  uint32,
  uint64,
  float16,
  float32,
  float64,
  bool,
  complex64,
  complex128,
  datetime64("s"),
  timedelta64("s"),
  fixedLengthUnicode(4),
  nullTerminatedBytes(4),
];

const edgeNumbers = fc.constantFrom(
  -0,
  0.5,
  2 ** 53,
  2 ** 53 + 2,
  -(2 ** 53),
  2 ** 63,
  2 ** 64,
  65504,
  65519,
  65520,
  3.4028234663852886e38,
  3.4028235677973366e38,
  2 ** 31,
  -(2 ** 31) - 1,
  2 ** 32,
);

const edgeBigInts = fc.constantFrom(
  2n ** 63n - 1n,
  2n ** 63n,
  -(2n ** 63n),
  -(2n ** 63n) - 1n,
  2n ** 64n - 1n,
  2n ** 64n,
);

/** Every kind of JS value, biased towards the edges of each data type. */
const anyValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.double(),
  fc.integer({ min: -(2 ** 33), max: 2 ** 33 }),
  fc.integer({ min: -300, max: 300 }),
  edgeNumbers,
  fc.bigInt({ min: -(2n ** 65n), max: 2n ** 65n }),
  fc.bigInt({ min: -300n, max: 300n }),
  edgeBigInts,
  fc.string({ maxLength: 6 }),
  fc.string({ maxLength: 5, unit: "binary" }),
  fc.boolean(),
  fc.constantFrom(null, undefined, "NaT", "NaN", "5", "0x10", "", Symbol("s")),
  fc.constantFrom({ re: 1, im: Number.NaN }, { re: 1e39, im: 0 }, { re: "1", im: 0 }, [1, 2]),
  fc.func(fc.integer()),
  fc.object({ maxDepth: 1 }),
  fc.date({ min: new Date(-1e14), max: new Date(1e14) }),
);

/** A value for an assertion message; objects such as `{toString: 0}` cannot be turned into strings. */
function label(value: unknown): string {
  if (typeof value === "symbol") return "symbol";
  try {
    return String(value);
  } catch {
    return Object.prototype.toString.call(value);
  }
}

describe("set stores what the reference rule says, or throws a branded error and writes nothing", () => {
  it("one value into one element of every data type", async () => {
    const arrays = await Promise.all(DATA_TYPES.map((dataType) => mapStoreArray(dataType)));
    await fc.assert(
      fc.asyncProperty(anyValue, async (value) => {
        for (const [k, dataType] of DATA_TYPES.entries()) {
          const { arr, store } = arrays[k];
          const verdict = reference(dataType, value);
          const before = new Map(store);
          const error = await arr.set([1], value as never).then(
            () => undefined,
            (e: unknown) => e,
          );
          const where = `${dataType.name} <- ${label(value)}`;
          if (verdict === "error") {
            expect(isZarrError(error), where).toBe(true);
            expect(store, where).toEqual(before);
          } else {
            expect(error, where).toBeUndefined();
            expect(await elementAt(arr, 1), where).toEqual(verdict.stored);
          }
        }
      }),
      { numRuns: RUNS },
    );
  });

  it("a plain array of values: all stored, or an error naming the first misfit and nothing written", async () => {
    const types: DataType[] = [int8, uint16, int32, int64, float16, float32, bool, datetime64("s")];
    const arrays = await Promise.all(types.map((dataType) => mapStoreArray(dataType, [6], [2])));
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.oneof(
            { weight: 4, arbitrary: fc.integer({ min: -2, max: 2 }) },
            // An array among the items would make a (ragged) nested value, which is a shape error.
            { weight: 1, arbitrary: anyValue.filter((v) => !Array.isArray(v)) },
          ),
          { minLength: 6, maxLength: 6 },
        ),
        async (values) => {
          for (const [k, dataType] of types.entries()) {
            const { arr, store } = arrays[k];
            const verdicts = values.map((v) => reference(dataType, v));
            const firstBad = verdicts.indexOf("error");
            const before = new Map(store);
            const error = await arr.set(null, values as never).then(
              () => undefined,
              (e: unknown) => e,
            );
            if (firstBad >= 0) {
              expect(error).toBeInstanceOf(ValueTypeError);
              expect((error as ValueTypeError).index).toEqual([firstBad]);
              expect(store).toEqual(before);
            } else {
              expect(error).toBeUndefined();
              const got = await arr.get();
              const stored = Array.from({ length: 6 }, (_, i) => dataType.getElement(got.data, i));
              expect(stored).toEqual(verdicts.map((v) => (v as { stored: unknown }).stored));
            }
          }
        },
      ),
      { numRuns: RUNS },
    );
  });
});
