import {
  ArrowValueError,
  arrowDataType,
  arrowElementFromJson,
  arrowElementToJson,
  coerceArrowElement,
} from "@z/dtypes-arrow";
import { describe, expect, it } from "vitest";
import { CASES, elements, field } from "./cases.js";

function withoutNegativeZero(value: unknown): unknown {
  if (Object.is(value, -0)) return 0;
  if (Array.isArray(value)) return value.map(withoutNegativeZero);
  return value;
}

describe("element JSON (zarr get --json, fill values) round trips", () => {
  for (const c of CASES) {
    it(c.label, () => {
      for (const value of elements(c, 12)) {
        const json = arrowElementToJson(c.field, value);
        expect(arrowElementFromJson(c.field, json)).toEqual(value);
        // Plain JSON: survives a text round trip (JSON text has no -0).
        const text = JSON.parse(JSON.stringify(json));
        expect(arrowElementFromJson(c.field, text)).toEqual(withoutNegativeZero(value));
      }
    });
  }
});

describe("coercion to the element form", () => {
  const int32 = field("n", { name: "int", bitWidth: 32, isSigned: true }, false);
  const uint64 = field("n", { name: "int", bitWidth: 64, isSigned: false });

  it("integers: ranges, bigints and exact numbers", () => {
    expect(coerceArrowElement(int32, 2n ** 31n - 1n)).toBe(2 ** 31 - 1);
    expect(() => coerceArrowElement(int32, 2 ** 31)).toThrow(
      /an integer from -2147483648 to 2147483647/,
    );
    expect(() => coerceArrowElement(int32, 1.5)).toThrow(ArrowValueError);
    expect(() => coerceArrowElement(int32, null)).toThrow(
      /is null; .* wants a value \(the field is not nullable\)/,
    );
    expect(coerceArrowElement(uint64, 5)).toBe(5n);
    expect(coerceArrowElement(uint64, undefined)).toBeNull();
    expect(() => coerceArrowElement(uint64, -1n)).toThrow(ArrowValueError);
  });

  it("floats are rounded to their precision, as storing them would", () => {
    const half = field("h", { name: "floatingpoint", precision: "HALF" });
    const single = field("s", { name: "floatingpoint", precision: "SINGLE" });
    expect(coerceArrowElement(half, 0.1)).toBe(0.0999755859375);
    expect(coerceArrowElement(single, 0.1)).toBe(Math.fround(0.1));
    expect(coerceArrowElement(single, 3n)).toBe(3);
  });

  it("decimals: exact text with `scale` digits, never rounded", () => {
    const d = field("d", { name: "decimal", precision: 5, scale: 2, bitWidth: 128 });
    expect(coerceArrowElement(d, "1.5")).toBe("1.50");
    expect(coerceArrowElement(d, -0.25)).toBe("-0.25");
    expect(coerceArrowElement(d, 12n)).toBe("12.00");
    expect(coerceArrowElement(d, "1.2e2")).toBe("120.00");
    expect(coerceArrowElement(d, "0.000")).toBe("0.00");
    expect(() => coerceArrowElement(d, "1.234")).toThrow(
      /more fractional digits than the scale \(2\) keeps/,
    );
    expect(() => coerceArrowElement(d, "1000")).toThrow(/more than 5 significant digits/);
    expect(() => coerceArrowElement(d, "1,5")).toThrow(/is not a decimal number/);
    const negativeScale = field("d", { name: "decimal", precision: 3, scale: -3, bitWidth: 32 });
    expect(coerceArrowElement(negativeScale, "123000")).toBe("123000");
    expect(() => coerceArrowElement(negativeScale, "1234")).toThrow(ArrowValueError);
  });

  it("dates and timestamps accept Date objects when exact", () => {
    const day = field("d", { name: "date", unit: "DAY" });
    const ms = field("d", { name: "date", unit: "MILLISECOND" });
    const us = field("t", { name: "timestamp", unit: "MICROSECOND", timezone: "UTC" });
    const s = field("t", { name: "timestamp", unit: "SECOND" });
    expect(coerceArrowElement(day, new Date("2024-02-29"))).toBe(19782);
    expect(coerceArrowElement(ms, new Date("1970-01-02"))).toBe(86_400_000n);
    expect(coerceArrowElement(us, new Date(1500))).toBe(1_500_000n);
    expect(() => coerceArrowElement(s, new Date(1500))).toThrow(/whole number of seconds/);
    expect(() => coerceArrowElement(day, new Date(1500))).toThrow(/midnight UTC/);
  });

  it("maps accept pairs, Maps, and objects when keys are strings", () => {
    const m = CASES.find((c) => c.label === "map<utf8, int64>")!.field;
    expect(coerceArrowElement(m, new Map([["a", 1]]))).toEqual([["a", 1n]]);
    expect(coerceArrowElement(m, { a: 2, b: null })).toEqual([
      ["a", 2n],
      ["b", null],
    ]);
    expect(() => coerceArrowElement(m, [["a"]])).toThrow(/a \[key, value\] pair/);
    expect(() => coerceArrowElement(m, [[null, 1]])).toThrow(/\[0\]\[0\] is null/);
  });

  it("unions: {typeId, value}; a null member is a null element", () => {
    const u = CASES.find((c) => c.label === "sparse union")!.field;
    expect(coerceArrowElement(u, { typeId: 5, value: "x" })).toEqual({ typeId: 5, value: "x" });
    expect(coerceArrowElement(u, { typeId: 0, value: null })).toBeNull();
    expect(() => coerceArrowElement(u, { typeId: 1, value: 2 })).toThrow(
      /one of the type ids 0, 5/,
    );
    expect(() => coerceArrowElement(u, { typeId: 0, value: "x" })).toThrow(
      /element\.value is the string "x"/,
    );
  });

  it("fixed sizes are checked", () => {
    const fsb = field("b", { name: "fixedsizebinary", byteWidth: 2 });
    const fsl = CASES.find((c) => c.label === "fixedsizelist<float64>[3]")!.field;
    expect(() => coerceArrowElement(fsb, new Uint8Array(3))).toThrow(/exactly 2 bytes, not 3/);
    expect(coerceArrowElement(fsl, new Float64Array([1, 2, 3]))).toEqual([1, 2, 3]);
    expect(() => coerceArrowElement(fsl, [1, 2])).toThrow(/exactly 3 items/);
  });
});

describe("which values passed to set are one element", () => {
  const scalar = (label: string, value: unknown) =>
    arrowDataType(CASES.find((c) => c.label === label)!.field).isScalar(value);

  it("lists: one list unless the array is a valid block of lists", () => {
    expect(scalar("list<int32>", [1, 2])).toBe(true);
    expect(scalar("list<int32>", [])).toBe(true);
    expect(scalar("list<int32>", new Int32Array(2))).toBe(true);
    expect(scalar("list<int32>", [[1], [2, 3]])).toBe(false);
    expect(scalar("list<int32>", [null, null])).toBe(false);
    expect(scalar("list<list<int8>>", [[1], [2]])).toBe(true);
  });

  it("objects are one element; {data, shape} and blocks are not", () => {
    expect(scalar("struct", { a: 1 })).toBe(true);
    expect(scalar("struct", { data: [], shape: [0] })).toBe(false);
    expect(scalar("struct", [{ a: 1 }])).toBe(false);
    expect(scalar("binary", new Uint8Array(2))).toBe(true);
    expect(scalar("int32", new Int32Array(2))).toBe(false);
    expect(scalar("map<utf8, int64>", new Map())).toBe(true);
    expect(scalar("dictionary<uint32, list<int32>>", [1, 2])).toBe(true);
  });
});
