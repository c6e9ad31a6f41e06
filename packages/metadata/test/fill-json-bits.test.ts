// A float fill value written to v3 metadata reads back with the same bits: -0.0 keeps its sign
// and a NaN keeps its payload (written as a hex bit pattern). The one exception is the quiet
// bit of a float32 signaling NaN, which no JavaScript number can hold unquieted.
import { loadDataTypes, parseJson, resolveDataTypeV3, stringifyJson } from "@z/metadata";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";

beforeAll(() => loadDataTypes());

/** The float64 bits of a number. */
const bits64 = (x: number) => new BigUint64Array(Float64Array.of(x).buffer)[0];
/** The float32 bits of a number, with a signaling NaN's quiet bit set. */
const bits32 = (x: number) => {
  const b = new Uint32Array(Float32Array.of(x).buffer)[0];
  return (b & 0x7f800000) === 0x7f800000 && (b & 0x7fffff) !== 0 ? b | 0x400000 : b;
};
const f64 = fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }).map((b) => {
  const v = new DataView(new ArrayBuffer(8));
  v.setBigUint64(0, b);
  return v.getFloat64(0);
});
const f32 = fc.integer({ min: 0, max: 0xffffffff }).map((b) => {
  const v = new DataView(new ArrayBuffer(4));
  v.setUint32(0, b);
  return v.getFloat32(0);
});

/** The fill value after a trip through v3 metadata text. */
function roundTrip<T>(name: string, value: T): T {
  const dt = resolveDataTypeV3(name);
  const text = stringifyJson({ fill_value: dt.fillToJson(value, 3) });
  return dt.parseFill((parseJson(text) as { fill_value: never }).fill_value, 3) as T;
}

describe("float fill values through v3 metadata", () => {
  it("float64 keeps every bit pattern", () => {
    fc.assert(
      fc.property(f64, (x) => {
        expect(bits64(roundTrip("float64", x))).toBe(bits64(x));
      }),
    );
  });
  it("float32 keeps every bit pattern but a signaling NaN's quiet bit", () => {
    fc.assert(
      fc.property(f32, (x) => {
        expect(bits32(roundTrip("float32", x))).toBe(bits32(x));
      }),
    );
  });
  it("complex128 and complex64 keep the bits of both parts", () => {
    fc.assert(
      fc.property(f64, f64, f32, f32, (re, im, re32, im32) => {
        const c = roundTrip("complex128", { re, im });
        expect([bits64(c.re), bits64(c.im)]).toEqual([bits64(re), bits64(im)]);
        const d = roundTrip("complex64", { re: re32, im: im32 });
        expect([bits32(d.re), bits32(d.im)]).toEqual([bits32(re32), bits32(im32)]);
      }),
    );
  });
  it("writes -0.0 and the usual NaN as zarr-python does", () => {
    expect(stringifyJson(resolveDataTypeV3("float64").fillToJson(-0, 3))).toBe("-0.0");
    expect(resolveDataTypeV3("float32").fillToJson(Number.NaN, 3)).toBe("NaN");
    expect(resolveDataTypeV3("complex128").fillToJson({ re: Number.NaN, im: -0 }, 3)).toEqual([
      "NaN",
      -0,
    ]);
  });
});

describe("small float fill values through v3 metadata", () => {
  it("bfloat16 and complex_bfloat16 keep every non-NaN value, large integral ones included", () => {
    const code = fc.integer({ min: 0, max: 0xffff });
    fc.assert(
      fc.property(code, code, (a, b) => {
        const dt = resolveDataTypeV3("bfloat16");
        const value = (c: number) =>
          dt.getElement(dt.decode(Uint8Array.of(c & 255, c >> 8), 1, "little"), 0) as number;
        const [x, y] = [value(a), value(b)];
        const back = (v: number) => (Number.isNaN(v) ? Number.NaN : v);
        expect(roundTrip("bfloat16", x)).toBe(back(x));
        expect(roundTrip("complex_bfloat16", { re: x, im: y })).toEqual({
          re: back(x),
          im: back(y),
        });
      }),
    );
  });
});
