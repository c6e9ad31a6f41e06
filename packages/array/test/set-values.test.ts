import { createArray } from "@z/array";
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
  structType,
  timedelta64,
  uint8,
  uint16,
  uint32,
  uint64,
  ValueTypeError,
} from "@z/metadata";
import { isZarrError } from "@z/store-core";
import { describe, expect, it } from "vitest";
import { elementAt, mapStoreArray } from "./map-store-array.js";

/** Every data type family, by a short column name. */
const TYPES = {
  i8: int8,
  i16: int16,
  i32: int32,
  i64: int64,
  u8: uint8,
  u16: uint16,
  u32: uint32,
  u64: uint64,
  f16: float16,
  f32: float32,
  f64: float64,
  b: bool,
  c64: complex64,
  c128: complex128,
  M: datetime64("s"),
  m: timedelta64("s"),
  S: nullTerminatedBytes(4),
  U: fixedLengthUnicode(4),
  rec: structType([
    { name: "x", dataType: int16 },
    { name: "y", dataType: float32 },
  ]),
} satisfies Record<string, DataType>;

type Column = keyof typeof TYPES;
const COLUMNS = Object.keys(TYPES) as Column[];

/** The outcome "a typed error, nothing written". */
const E = Symbol("error");
type Outcome = unknown;

const SMALL_INTS: Column[] = ["i8", "i16", "i32", "u8", "u16", "u32"];
const FLOATS: Column[] = ["f16", "f32", "f64"];
const TIMES: Column[] = ["M", "m"];

/** `value` for each of `columns`. */
function each(columns: readonly Column[], value: Outcome): Partial<Record<Column, Outcome>> {
  return Object.fromEntries(columns.map((c) => [c, value]));
}

const cx = (re: number, im = 0) => ({ re, im });
const utf8 = (text: string) => new TextEncoder().encode(text);

/** What an integral number that fits everything but the given columns stores. */
function integral(n: number): Partial<Record<Column, Outcome>> {
  return {
    ...each(SMALL_INTS, n),
    ...each(["i64", "u64", ...TIMES], BigInt(n)),
    ...each(FLOATS, n),
    c64: cx(n),
    c128: cx(n),
  };
}

/**
 * The table: a value and what `set` stores for each data type (columns not named are a
 * typed error). Written out by hand from the policy in the README, not computed.
 */
const TABLE: [label: string, value: unknown, outcomes: Partial<Record<Column, Outcome>>][] = [
  ["0", 0, { ...integral(0), b: false }],
  ["-0", -0, { ...integral(0), ...each(FLOATS, -0), c64: cx(-0), c128: cx(-0), b: false }],
  ["1", 1, { ...integral(1), b: true }],
  ["-1", -1, { ...integral(-1), ...each(["u8", "u16", "u32", "u64"], E) }],
  ["1.5", 1.5, { ...each(FLOATS, 1.5), c64: cx(1.5), c128: cx(1.5) }],
  ["128", 128, { ...integral(128), i8: E }],
  ["256", 256, { ...integral(256), i8: E, u8: E }],
  ["-129", -129, { ...integral(-129), i8: E, u8: E, u16: E, u32: E, u64: E }],
  ["2^31", 2 ** 31, { ...integral(2 ** 31), i8: E, i16: E, i32: E, u8: E, u16: E, f16: E }],
  ["2^40", 2 ** 40, { ...integral(2 ** 40), i8: E, i16: E, i32: E, u8: E, u16: E, u32: E, f16: E }],
  [
    "2^53 + 2 (not a safe integer)",
    2 ** 53 + 2,
    { f32: 2 ** 53, f64: 2 ** 53 + 2, c64: cx(2 ** 53), c128: cx(2 ** 53 + 2) },
  ],
  ["1e300", 1e300, { f64: 1e300, c128: cx(1e300) }],
  ["70000", 70000, { ...integral(70000), i8: E, i16: E, u8: E, u16: E, f16: E }],
  [
    "0.1",
    0.1,
    {
      f16: 0.0999755859375,
      f32: Math.fround(0.1),
      f64: 0.1,
      c64: cx(Math.fround(0.1)),
      c128: cx(0.1),
    },
  ],
  ["NaN", Number.NaN, { ...each(FLOATS, Number.NaN), c64: cx(Number.NaN), c128: cx(Number.NaN) }],
  [
    "Infinity",
    Number.POSITIVE_INFINITY,
    { ...each(FLOATS, Number.POSITIVE_INFINITY), c64: cx(Infinity), c128: cx(Infinity) },
  ],
  [
    "-Infinity",
    Number.NEGATIVE_INFINITY,
    { ...each(FLOATS, Number.NEGATIVE_INFINITY), c64: cx(-Infinity), c128: cx(-Infinity) },
  ],
  ["1n", 1n, { ...integral(1), b: true }],
  ["0n", 0n, { ...integral(0), b: false }],
  ["-1n", -1n, { ...integral(-1), ...each(["u8", "u16", "u32", "u64"], E) }],
  [
    "2n ** 63n",
    2n ** 63n,
    { u64: 2n ** 63n, f32: 2 ** 63, f64: 2 ** 63, c64: cx(2 ** 63), c128: cx(2 ** 63) },
  ],
  ["2n ** 64n", 2n ** 64n, { f32: 2 ** 64, f64: 2 ** 64, c64: cx(2 ** 64), c128: cx(2 ** 64) }],
  [
    "-(2n ** 63n) (int64 min, NaT for times)",
    -(2n ** 63n),
    {
      i64: -(2n ** 63n),
      ...each(TIMES, NAT),
      f32: -(2 ** 63),
      f64: -(2 ** 63),
      c64: cx(-(2 ** 63)),
      c128: cx(-(2 ** 63)),
    },
  ],
  [
    "true",
    true,
    {
      ...each(SMALL_INTS, 1),
      i64: 1n,
      u64: 1n,
      ...each(FLOATS, 1),
      b: true,
      c64: cx(1),
      c128: cx(1),
    },
  ],
  [
    "false",
    false,
    {
      ...each(SMALL_INTS, 0),
      i64: 0n,
      u64: 0n,
      ...each(FLOATS, 0),
      b: false,
      c64: cx(0),
      c128: cx(0),
    },
  ],
  ['"5"', "5", { S: utf8("5"), U: "5" }],
  ['""', "", { S: utf8(""), U: "" }],
  ['"0x10"', "0x10", { S: utf8("0x10"), U: "0x10" }],
  ['"NaN"', "NaN", { S: utf8("NaN"), U: "NaN" }],
  ['"abc"', "abc", { S: utf8("abc"), U: "abc" }],
  ['"false" (too long for 4)', "false", {}],
  ['"NaT"', "NaT", { ...each(TIMES, NAT), S: utf8("NaT"), U: "NaT" }],
  ['"2020-01-02"', "2020-01-02", { M: 1577923200n }],
  ['"ßàř" (6 UTF-8 bytes, 3 characters)', "ßàř", { U: "ßàř" }],
  ["null", null, { ...each(TIMES, NAT) }],
  ["undefined", undefined, {}],
  ["a symbol", Symbol("s"), {}],
  ["a function", () => 1, {}],
  ["{}", {}, {}],
  ["{x: 1, y: 2}", { x: 1, y: 2 }, { rec: { x: 1, y: 2 } }],
  ["{x: 1, y: 2, z: 3} (unknown field)", { x: 1, y: 2, z: 3 }, {}],
  ["{x: 1.5, y: 2} (fraction in int16 field)", { x: 1.5, y: 2 }, {}],
  ['{x: 1, y: "2"} (string in float32 field)', { x: 1, y: "2" }, {}],
  ["{re: 1, im: 2}", { re: 1, im: 2 }, { c64: cx(1, 2), c128: cx(1, 2) }],
  ['{re: 1, im: "2"}', { re: 1, im: "2" }, {}],
  ["[1, 2] (two values for one element)", [1, 2], {}],
  ["a Date", new Date(Date.UTC(2020, 0, 2)), { M: 1577923200n }],
];

describe("set: every JS value type into every data type family", () => {
  for (const column of COLUMNS) {
    it(`${column} (${TYPES[column].name})`, async () => {
      const { arr, store } = await mapStoreArray(TYPES[column]);
      for (const [label, value, outcomes] of TABLE) {
        const expected = column in outcomes ? outcomes[column] : E;
        const before = new Map(store);
        let error: unknown;
        try {
          await arr.set([1], value as never);
        } catch (e) {
          error = e;
        }
        if (expected === E) {
          expect(error, `${label} into ${column} should fail`).toBeDefined();
          expect(isZarrError(error), `${label}: ${String(error)}`).toBe(true);
          expect(store, `${label}: nothing written`).toEqual(before);
        } else {
          expect(error, `${label} into ${column}`).toBeUndefined();
          expect(await elementAt(arr, 1), `${label} into ${column}`).toEqual(expected);
        }
      }
    });
  }

  it("a scalar error is a ValueTypeError naming the value and the data type", async () => {
    const { arr } = await mapStoreArray(int32);
    const error = await arr.set([0], 2 ** 40).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValueTypeError);
    expect(error).toMatchObject({ value: 2 ** 40, dataType: "int32", index: undefined });
    expect(String(error)).toMatch(
      /1099511627776 as int32: outside the range -2147483648\.\.2147483647/,
    );
    await expect(arr.set([0], Number.NaN)).rejects.toThrow(/NaN as int32: NaN has no int32 value/);
    await expect(arr.set([0], "5")).rejects.toThrow(
      /the string "5" as int32: strings are not parsed/,
    );
    const big = await mapStoreArray(int64);
    await expect(big.arr.set([0], 2 ** 60)).rejects.toThrow(/not exact integers; pass a bigint/);
    const rec = await mapStoreArray(TYPES.rec);
    await expect(rec.arr.set([0], { x: 1 })).rejects.toThrow(/no value for the field "y"/);
    await expect(rec.arr.set([0], { x: 1, y: 2, z: 3 })).rejects.toThrow(/no field "z"/);
    await expect(rec.arr.set([0], { x: 1.5, y: 2 })).rejects.toThrow(
      /field "x": the number 1.5 does not fit int16/,
    );
    await expect(
      createArray(new Map(), { shape: [1], dtype: "uint8", fillValue: -1 }),
    ).rejects.toThrow(ValueTypeError);
    const text = await mapStoreArray(TYPES.U);
    await expect(text.arr.set([0], "false")).rejects.toThrow(/5 characters, more than the 4/);
  });
});

describe("set: arrays of values are checked element by element", () => {
  it("a bad element anywhere in a value spanning several chunks writes nothing and names its index", async () => {
    const { arr, store } = await mapStoreArray("int32", [4, 4], [2, 2]);
    await arr.set(null, 7);
    const before = new Map(store);
    const rows = [
      [1, 2, 3, 4],
      [5, 6, 7, 8],
      [9, 10, 11, 12],
      [13, 14, 15, 16],
    ];
    for (const [bad, index] of [
      [Number.NaN, [3, 2]],
      [1.5, [2, 0]],
      ["9", [0, 3]],
      [2 ** 31, [3, 3]],
      [undefined, [1, 1]],
    ] as [unknown, number[]][]) {
      const value = rows.map((row) => [...row]) as unknown[][];
      value[index[0]][index[1]] = bad;
      const error = await arr.set(null, value as never).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ValueTypeError);
      expect((error as ValueTypeError).index).toEqual(index);
      expect(String(error)).toContain(`element [${index.join(", ")}] of the value`);
      expect(store).toEqual(before);
      // The same value flat: the index is the flat position.
      const flat = value.flat();
      const flatError = await arr.set(null, flat as never).catch((e: unknown) => e);
      expect((flatError as ValueTypeError).index).toEqual([index[0] * 4 + index[1]]);
      expect(store).toEqual(before);
      // And as the data of an n-d value.
      const ndError = await arr
        .set(null, { data: flat as number[], shape: [4, 4] })
        .catch((e: unknown) => e);
      expect(ndError).toBeInstanceOf(ValueTypeError);
      expect(store).toEqual(before);
    }
    await arr.set(null, rows);
    expect(Array.from((await arr.get()).data)).toEqual(rows.flat());
  });

  it("TypedArrays convert as TypedArray assignment does (the documented fast path)", async () => {
    const { arr } = await mapStoreArray(uint8);
    await arr.set(null, new Float64Array([-1, 256.7, Number.NaN]));
    expect(Array.from((await arr.get()).data)).toEqual([255, 0, 0]);
  });
});

describe("set: n-d values with strides", () => {
  it("strides of the wrong rank, negative or fractional, or reaching past the data are errors", async () => {
    const { arr, store } = await mapStoreArray("float32", [2, 3], [1, 2]);
    await arr.set(null, 5);
    const before = new Map(store);
    const data = new Float32Array(6).fill(1);
    for (const stride of [[1], [3, 1, 1], [-3, 1], [3, -1], [1.5, 1], [3, 2], [4, 1]]) {
      const error = await arr.set(null, { data, shape: [2, 3], stride }).catch((e: unknown) => e);
      expect(isZarrError(error), `stride [${stride}]`).toBe(true);
      expect(store).toEqual(before);
    }
    for (const bad of [
      { data: new Float32Array(5), shape: [2, 3] },
      { data: "abcdef", shape: [2, 3] },
      { data, shape: [2, 3], stride: "3,1" },
      { data, shape: [2, -3] },
    ]) {
      const error = await arr.set(null, bad as never).catch((e: unknown) => e);
      expect(isZarrError(error), JSON.stringify(bad)).toBe(true);
      expect(store).toEqual(before);
    }
    // Transposed strides over exactly enough data are fine.
    await arr.set(null, {
      data: Float32Array.from([1, 4, 2, 5, 3, 6]),
      shape: [2, 3],
      stride: [1, 2],
    });
    expect(Array.from((await arr.get()).data)).toEqual([1, 2, 3, 4, 5, 6]);
  });
});
