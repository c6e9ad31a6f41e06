// The fixed-size data types beyond the numeric ones: complex, datetime64/timedelta64, S/U/V/r,
// structured records. Metadata forms (v2 type strings, v3 objects), fill values, byte orders,
// element accessors, and the zarr-metadata fixtures of zarr-python's metadata test suite.
import { readFileSync } from "node:fs";
import {
  Complex64Array,
  type Complex128Array,
  DATETIME_UNITS,
  type DataType,
  type DateTimeType,
  FillValueError,
  type FixedUnicodeType,
  float32,
  InvalidDataTypeError,
  int32,
  loadDataTypes,
  MetadataError,
  NAT,
  parseArrayMetadataV2,
  parseArrayMetadataV3,
  parseJson,
  resolveDataTypeV2,
  resolveDataTypeV3,
  resolveNumpyDataType,
  type StructType,
  structType,
} from "@z/metadata";
import { fixturePath, haveFixtures } from "@z/test-utils";
import { beforeAll, describe, expect, it } from "vitest";

// These types load on first use; the tests resolve them synchronously.
beforeAll(loadDataTypes);

const v2 = (json: unknown) => resolveDataTypeV2(json as never);
const v3 = (json: unknown) => resolveDataTypeV3(json as never);
const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex");

/** Encodes one element with a byte order. */
function encodeOne(dataType: DataType, value: unknown, endian: "little" | "big"): Uint8Array {
  const data = dataType.create(1);
  dataType.setElement(data, 0, dataType.coerce(value));
  return dataType.encode(data, endian).slice();
}

describe("complex64 / complex128", () => {
  it("resolves v2 type strings with their byte order and v3 names", () => {
    expect(v2("<c8").dataType.name).toBe("complex64");
    expect(v2(">c16")).toMatchObject({ endian: "big" });
    expect(v2(">c16").dataType.name).toBe("complex128");
    expect(v3("complex64").toV2("little")).toBe("<c8");
    expect(v3("complex128").toV2("big")).toBe(">c16");
  });

  it("stores interleaved parts in a Float32Array / Float64Array with accessors", () => {
    const t = v3("complex128");
    const data = t.create(2) as Complex128Array;
    expect(data).toBeInstanceOf(Float64Array);
    expect(data.length).toBe(4);
    t.setElement(data, 1, t.coerce([1.5, -2]));
    expect(Array.from(data)).toEqual([0, 0, 1.5, -2]);
    expect(data.count).toBe(2);
    expect(data.getComplex(1)).toEqual({ re: 1.5, im: -2 });
    expect(data.real(1)).toBe(1.5);
    expect(data.imag(1)).toBe(-2);
    expect(Complex64Array.fromComplex([{ re: 1, im: 2 }]).toComplexArray()).toEqual([
      { re: 1, im: 2 },
    ]);
    expect(t.toJsonElement(t.coerce({ re: Number.NaN, im: Number.POSITIVE_INFINITY }))).toEqual([
      "NaN",
      "Infinity",
    ]);
  });

  it("encodes each part in the byte order asked for", () => {
    const t = v3("complex64");
    expect(hex(encodeOne(t, { re: 1, im: -2 }, "little"))).toBe("0000803f000000c0");
    expect(hex(encodeOne(t, { re: 1, im: -2 }, "big"))).toBe("3f800000c0000000");
    const back = t.decode(Buffer.from("3f800000c0000000", "hex"), 1, "big");
    expect(t.getElement(back, 0)).toEqual({ re: 1, im: -2 });
  });

  it("parses [re, im] fill values with NaN, infinities and hex bit patterns", () => {
    const t = v3("complex64");
    expect(t.parseFill([1.5, 2.5], 3)).toEqual({ re: 1.5, im: 2.5 });
    const nan = t.parseFill(["-Infinity", "NaN"], 3) as { re: number; im: number };
    expect(nan.re).toBe(Number.NEGATIVE_INFINITY);
    expect(nan.im).toBeNaN();
    expect(t.parseFill(["0x7fc00000", "0x00000000"], 3)).toMatchObject({ im: 0 });
    expect(t.fillToJson({ re: Number.NaN, im: 1 }, 2)).toEqual(["NaN", 1]);
    expect(t.parseFill(null, 2)).toEqual({ re: 0, im: 0 });
  });

  it.skipIf(!haveFixtures("complex fill value fixtures"))(
    "reads every complex fill value of zarr-python's metadata fixtures",
    () => {
      for (const name of ["complex64", "complex128"]) {
        const cases = JSON.parse(
          readFileSync(
            fixturePath("zarr-metadata", "v3", "data_type", name, "fill_values.json"),
            "utf8",
          ),
        );
        for (const value of Object.values(cases))
          expect(() => v3(name).parseFill(value as never, 3)).not.toThrow();
      }
    },
  );
});

describe("datetime64 / timedelta64", () => {
  it("resolves every NumPy unit in v2, both kinds, both byte orders, and writes the same string back", () => {
    for (const unit of DATETIME_UNITS.filter((u) => u !== "generic")) {
      for (const typestr of [`<M8[${unit}]`, `>m8[${unit}]`, `<M8[25${unit}]`]) {
        const { dataType, endian } = v2(typestr);
        expect(dataType.toV2(endian)).toBe(typestr);
        expect((dataType as DateTimeType).unit).toBe(unit);
      }
    }
    const generic = v2("<M8").dataType as DateTimeType;
    expect(generic.unit).toBe("generic");
    expect(generic.toV2("little")).toBe("<M8");
    expect((v2("<m8[μs]").dataType as DateTimeType).unit).toBe("us");
  });

  it("resolves the v3 form and writes it back", () => {
    const json = { name: "numpy.timedelta64", configuration: { unit: "s", scale_factor: 10 } };
    const t = v3(json) as DateTimeType;
    expect([t.kind, t.unit, t.scaleFactor]).toEqual(["timedelta", "s", 10]);
    expect(t.toV3()).toEqual(json);
    expect(t.toV2("little")).toBe("<m8[10s]");
  });

  it("holds values in a BigInt64Array, NaT included, in either byte order", () => {
    const t = v2("<M8[ns]").dataType;
    const data = t.create(2);
    expect(data).toBeInstanceOf(BigInt64Array);
    t.setElement(data, 0, t.coerce("NaT"));
    t.setElement(data, 1, t.coerce(5));
    expect(hex(t.encode(data, "big"))).toBe("80000000000000000000000000000005");
    expect(t.toJsonElement(t.getElement(data, 0))).toBe("NaT");
    expect(t.toJsonElement(t.getElement(data, 1))).toBe(5);
  });

  it("parses integer and NaT fill values, writing NaT as v2 zarr-python 2 does", () => {
    const t = v3({ name: "numpy.datetime64", configuration: { unit: "ns", scale_factor: 1 } });
    expect(t.parseFill("NaT", 3)).toBe(NAT);
    expect(t.parseFill(parseJson("-9223372036854775808"), 2)).toBe(NAT);
    expect(t.parseFill(12345, 3)).toBe(12345n);
    expect(t.fillToJson(NAT, 3)).toBe("NaT");
    expect(t.fillToJson(NAT, 2)).toBe(NAT);
  });

  it("converts to and from Date for every unit", () => {
    const at = (typestr: string) => v2(typestr).dataType as DateTimeType;
    expect(at("<M8[s]").toDate(1_700_000_000n)?.toISOString()).toBe("2023-11-14T22:13:20.000Z");
    expect(at("<M8[ns]").toDate(1_700_000_000_123_456_789n)?.toISOString()).toBe(
      "2023-11-14T22:13:20.123Z",
    );
    expect(at("<M8[Y]").toDate(53n)?.toISOString()).toBe("2023-01-01T00:00:00.000Z");
    expect(at("<M8[M]").toDate(13n)?.toISOString()).toBe("1971-02-01T00:00:00.000Z");
    expect(at("<M8[W]").toDate(1n)?.toISOString()).toBe("1970-01-08T00:00:00.000Z");
    expect(at("<M8[10D]").toDate(1n)?.toISOString()).toBe("1970-01-11T00:00:00.000Z");
    expect(at("<M8[ms]").toDate(NAT)).toBeNull();
    const date = new Date("2001-02-03T04:05:06.789Z");
    for (const unit of ["Y", "M", "W", "D", "h", "m", "s", "ms", "us", "ns"]) {
      const t = at(`<M8[${unit}]`);
      const value = t.fromDate(date);
      // Floored to the unit: the instant of the value is at or before the date.
      expect(t.toDate(value)!.getTime()).toBeLessThanOrEqual(date.getTime());
    }
    expect(at("<M8[us]").fromDate(date)).toBe(981173106789000n);
    expect(at("<M8[D]").fromDate(new Date("1969-12-31T12:00:00Z"))).toBe(-1n);
    expect((v2("<m8[us]").dataType as DateTimeType).toMilliseconds(1500n)).toBe(1.5);
  });

  it.skipIf(!haveFixtures("datetime fixtures"))("reads zarr-python's datetime fixtures", () => {
    for (const name of ["numpy_datetime64", "numpy_timedelta64"]) {
      const dir = fixturePath("zarr-metadata", "v3", "data_type", name);
      const t = v3(JSON.parse(readFileSync(`${dir}/data_type.json`, "utf8")));
      const fills = JSON.parse(readFileSync(`${dir}/fill_values.json`, "utf8"));
      expect(t.parseFill(fills.nat, 3)).toBe(NAT);
      expect(t.parseFill(fills.int, 3)).toBe(BigInt(fills.int));
    }
  });
});

describe("S, U, V and raw bits", () => {
  it("S: null-terminated bytes, base64 fill values, v3 null_terminated_bytes", () => {
    const { dataType: t } = v2("|S5");
    expect([t.itemSize, t.lanes, t.kind]).toEqual([5, 5, "bytes"]);
    expect(t.toV3()).toEqual({ name: "null_terminated_bytes", configuration: { length_bytes: 5 } });
    expect(v3(t.toV3()).toV2("little")).toBe("|S5");
    const data = t.create(2);
    t.setElement(data, 1, t.coerce("ab"));
    expect(Array.from(data)).toEqual([0, 0, 0, 0, 0, 97, 98, 0, 0, 0]);
    expect(t.getElement(data, 1)).toEqual(new Uint8Array([97, 98]));
    expect(t.toJsonElement(t.getElement(data, 1))).toEqual({ base64: "YWI=" });
    expect(t.parseFill("YWI=", 2)).toEqual(new Uint8Array([97, 98]));
    expect(t.fillToJson(new Uint8Array([97, 98, 0]), 3)).toBe("YWI=");
    // zarr-python 2 falls back to NumPy's cast: the number 0 becomes b"0".
    expect(t.parseFill(0, 2)).toEqual(new Uint8Array([48]));
    expect(() => t.coerce("toolong")).toThrow(TypeError);
  });

  it("U: UTF-32 in both byte orders, v3 fixed_length_utf32", () => {
    const le = v2("<U3");
    const be = v2(">U3");
    expect(be.endian).toBe("big");
    const t = le.dataType as FixedUnicodeType;
    expect([t.itemSize, t.lanes]).toEqual([12, 3]);
    expect(t.toV3()).toEqual({ name: "fixed_length_utf32", configuration: { length_bytes: 12 } });
    expect(hex(encodeOne(t, "hé", "little"))).toBe("68000000e900000000000000");
    expect(hex(encodeOne(t, "hé", "big"))).toBe("00000068000000e900000000");
    const back = t.decode(Buffer.from("00000068000000e900000000", "hex"), 1, "big");
    expect(t.getElement(back, 0)).toBe("hé");
    expect(t.getElement(t.decode(Buffer.from(encodeOne(t, "😀x", "little")), 1, "little"), 0)).toBe(
      "😀x",
    );
    expect(t.parseFill(0, 2)).toBe("0");
    expect(() => t.parseFill("abcd", 3)).toThrow(FillValueError);
  });

  it("V and r<bits>: raw bytes, fills in base64 (v2, raw_bytes) or byte lists (r<bits>)", () => {
    const { dataType: v } = v2("|V4");
    expect(v.toV3()).toEqual({ name: "raw_bytes", configuration: { length_bytes: 4 } });
    expect(v.parseFill("AQIDAA==", 2)).toEqual(new Uint8Array([1, 2, 3, 0]));
    expect(v.parseFill(0, 2)).toEqual(new Uint8Array(4));
    const r = v3("r32");
    expect(r.toV3()).toBe("r32");
    expect(r.toV2("little")).toBe("|V4");
    expect(r.parseFill([0, 0, 0, 0], 3)).toEqual(new Uint8Array(4));
    expect(r.fillToJson(new Uint8Array([1, 0, 0, 2]), 3)).toEqual([1, 0, 0, 2]);
    const data = r.create(1);
    r.setElement(data, 0, new Uint8Array([1, 0, 0, 0]));
    expect(r.getElement(data, 0)).toEqual(new Uint8Array([1, 0, 0, 0]));
    expect(() => v3("r7")).toThrow(InvalidDataTypeError);
  });

  it("resolves NumPy dtype strings as codec configurations write them", () => {
    expect(resolveNumpyDataType("<U4").dataType.name).toBe("fixed_length_utf32(4)");
  });
});

describe("structured records", () => {
  const dtype = [
    ["a", "<i4"],
    [
      "sub",
      [
        ["x", ">f8"],
        ["y", "|u1"],
      ],
    ],
    ["arr", "<f4", [2, 3]],
  ];

  it("parses v2 lists with nested records and subarray fields, and writes them back", () => {
    const { dataType } = v2(dtype);
    const t = dataType as StructType;
    expect(t.itemSize).toBe(4 + 9 + 24);
    expect(t.toV2("little")).toEqual([
      ["a", "<i4"],
      [
        "sub",
        [
          ["x", ">f8"],
          ["y", "|u1"],
        ],
      ],
      ["arr", "<f4", [2, 3]],
    ]);
    // Every field keeps its own byte order, so the codec's does not matter.
    expect(t.endianSensitive).toBe(false);
  });

  it("encodes each field in its own byte order and reads records and columns", () => {
    const t = v2(dtype).dataType as StructType;
    const record = {
      a: -2,
      sub: { x: 1.5, y: 7 },
      arr: [
        [1, 2, 3],
        [4, 5, 6],
      ],
    };
    const data = t.create(2);
    t.setElement(data, 0, record);
    t.setElement(data, 1, { ...record, a: 9 });
    const stored = t.encode(data, "little");
    const view = new DataView(stored.buffer, stored.byteOffset, stored.byteLength);
    expect(view.getInt32(0, true)).toBe(-2);
    expect(view.getFloat64(4, false)).toBe(1.5);
    expect(view.getUint8(12)).toBe(7);
    expect(view.getFloat32(13 + 4 * 5, true)).toBe(6);
    const decoded = t.decode(stored, 2, "little");
    expect(t.getElement(decoded, 0)).toEqual(record);
    expect(Array.from(t.column(decoded, "a") as Int32Array)).toEqual([-2, 9]);
    expect(Array.from(t.column(decoded, ["sub", "x"]) as Float64Array)).toEqual([1.5, 1.5]);
    expect((t.column(decoded, "arr") as Float32Array).length).toBe(12);
    t.setColumn(decoded, "a", new Int32Array([5, 6]));
    expect(t.records(decoded).map((r) => r.a)).toEqual([5, 6]);
    expect(t.toJsonElement(t.getElement(decoded, 0))).toEqual({ ...record, a: 5 });
  });

  it("a v2 type with big-endian fields has no v3 form until it takes the codec's byte order", () => {
    const t = v2(dtype).dataType as StructType;
    expect(() => t.toV3()).toThrow(InvalidDataTypeError);
    const free = t.withoutFixedOrders();
    expect(free.endianSensitive).toBe(true);
    expect(v3(free.toV3()).name).toBe(free.name);
    // All-little fixed orders are what v3 with a little-endian bytes codec means.
    expect(v2([["a", "<i4"]]).dataType.toV3()).toEqual({
      name: "struct",
      configuration: { fields: [{ name: "a", data_type: "int32" }] },
    });
  });

  it("v2 fill values are base64 record bytes (0 and null mean zeros)", () => {
    const t = v2([
      ["a", "<i4"],
      ["b", ">u2"],
    ]).dataType;
    expect(t.parseFill(0, 2)).toEqual({ a: 0, b: 0 });
    const fill = { a: 1, b: 2 };
    const json = t.fillToJson(fill, 2);
    expect(Buffer.from(json as string, "base64").toString("hex")).toBe("010000000002");
    expect(t.parseFill(json, 2)).toEqual(fill);
  });

  it("v3 struct and structured, with object fill values", () => {
    const json = {
      name: "struct",
      configuration: {
        fields: [
          { name: "x", data_type: "float32" },
          {
            name: "when",
            data_type: { name: "numpy.datetime64", configuration: { unit: "ns", scale_factor: 1 } },
          },
          {
            name: "m",
            data_type: { name: "subarray", configuration: { subdtype: "int32", shape: [2] } },
          },
        ],
      },
    };
    const t = v3(json) as StructType;
    expect(t.toV3()).toEqual(json);
    expect(t.endianSensitive).toBe(true);
    expect(t.parseFill({ x: 1, when: "NaT", m: 3 }, 3)).toEqual({ x: 1, when: NAT, m: [3, 3] });
    expect(t.fillToJson({ x: 1, when: NAT, m: [3, 4] }, 3)).toEqual({
      x: 1,
      when: "NaT",
      m: [3, 4],
    });
    const legacy = v3({
      name: "structured",
      configuration: {
        fields: [
          ["x", "float32"],
          ["y", "int32"],
        ],
      },
    });
    expect(legacy.toV3()).toEqual({
      name: "struct",
      configuration: {
        fields: [
          { name: "x", data_type: "float32" },
          { name: "y", data_type: "int32" },
        ],
      },
    });
    // With the codec's byte order (v3), big-endian chunks swap every multi-byte field.
    const s = structType([
      { name: "x", dataType: float32 },
      { name: "i", dataType: int32 },
    ]);
    expect(hex(encodeOne(s, { x: 1, i: 2 }, "big"))).toBe("3f80000000000002");
    expect(s.getElement(s.decode(Buffer.from("3f80000000000002", "hex"), 1, "big"), 0)).toEqual({
      x: 1,
      i: 2,
    });
  });

  it.skipIf(!haveFixtures("structured metadata fixtures"))(
    "reads zarr-python's structured metadata fixtures",
    () => {
      const dir = fixturePath("zarr-metadata");
      const meta = parseArrayMetadataV2(
        parseJson(readFileSync(`${dir}/v2/array/structured_dtype.json`)),
      );
      expect((meta.dataType as StructType).fields.map((f) => f.name)).toEqual(["x", "y", "coords"]);
      expect(meta.fillValue).toEqual({ x: 0, y: 0, coords: [0, 0, 0] });
      const struct = v3(
        JSON.parse(readFileSync(`${dir}/v3/data_type/struct/data_type.json`, "utf8")),
      );
      const fills = JSON.parse(readFileSync(`${dir}/v3/data_type/struct/fill_values.json`, "utf8"));
      expect(struct.parseFill(fills.all_fields, 3)).toEqual({ x: 0, y: 1, when: 0n });
      const v3meta = parseArrayMetadataV3(
        parseJson(readFileSync(`${dir}/v3/array/datatype_named_config.json`)),
      );
      expect(v3meta.dataType.name).toBe("datetime64[ns]");
    },
  );
});

describe("bad input gives typed errors", () => {
  const bad = (fn: () => unknown, type: typeof MetadataError, message: RegExp) => {
    let caught: unknown;
    try {
      fn();
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(type);
    expect(caught).toBeInstanceOf(MetadataError);
    expect((caught as Error).message).toMatch(message);
  };

  it("structured dtypes that do not parse", () => {
    bad(() => v2([["a"]]), InvalidDataTypeError, /field 0.*expected \["name", "<type>"\]/);
    bad(() => v2([[1, "<i4"]]), InvalidDataTypeError, /field 0/);
    bad(
      () =>
        v2([
          ["a", "<i4"],
          ["a", "<f8"],
        ]),
      InvalidDataTypeError,
      /"a" twice/,
    );
    bad(() => v2([["a", "<i4", [0]]]), InvalidDataTypeError, /subarray shape/);
    bad(
      () =>
        v2([
          ["a", "<i4"],
          ["b", "|O"],
        ]),
      InvalidDataTypeError,
      /field 1 \("b"\)/,
    );
    bad(() => v2([["a", [["b", "<q9"]]]]), InvalidDataTypeError, /field 0 \("a"\) field 0 \("b"\)/);
    bad(() => v2([]), InvalidDataTypeError, /at least one field/);
    bad(
      () => v3({ name: "struct", configuration: { fields: [{ name: "x" }] } }),
      InvalidDataTypeError,
      /field 0/,
    );
  });

  it("fill values of the wrong form", () => {
    bad(() => v3("complex64").parseFill(1.5, 3), FillValueError, /expected \[real, imaginary\]/);
    bad(() => v3("complex128").parseFill(["a", 0], 3), FillValueError, /complex128/);
    bad(() => v2("<M8[s]").dataType.parseFill(1.5, 3), FillValueError, /int64 integer or "NaT"/);
    bad(
      () => v2("|S3").dataType.parseFill("not base64!", 3),
      FillValueError,
      /not standard base64/,
    );
    bad(() => v2("|S3").dataType.parseFill("YWJjZA==", 3), FillValueError, /more than the 3/);
    bad(() => v2("<U2").dataType.parseFill(5, 3), FillValueError, /expected a string/);
    bad(() => v3("r16").parseFill([1, 2, 3], 3), FillValueError, /exactly 2/);
    const struct = v3({
      name: "struct",
      configuration: { fields: [{ name: "x", data_type: "float32" }] },
    });
    bad(() => struct.parseFill({}, 3), FillValueError, /no value for the field "x"/);
    bad(() => struct.parseFill({ x: 1, z: 2 }, 3), FillValueError, /unknown field/);
    bad(() => v2([["x", "<f4"]]).dataType.parseFill([1], 2), FillValueError, /base64/);
    bad(
      () => v2([["x", "<f4"]]).dataType.parseFill("AAAA", 2),
      FillValueError,
      /3 bytes where a record has 4/,
    );
  });

  it("unknown datetime units", () => {
    bad(() => v2("<M8[fortnight]"), InvalidDataTypeError, /unknown time unit "fortnight"/);
    bad(() => v2("<m8[0s]"), InvalidDataTypeError, /scale_factor/);
    bad(
      () => v3({ name: "numpy.datetime64", configuration: { unit: "xs", scale_factor: 1 } }),
      InvalidDataTypeError,
      /unknown time unit "xs".*expected one of Y, M, W/,
    );
    bad(
      () => v3({ name: "numpy.datetime64", configuration: { unit: "s" } }),
      InvalidDataTypeError,
      /scale_factor/,
    );
  });

  it("errors in metadata documents name the document", () => {
    const doc = {
      zarr_format: 2,
      shape: [2],
      chunks: [2],
      dtype: "<M8[parsec]",
      compressor: null,
      fill_value: 0,
      filters: null,
      order: "C",
    };
    bad(
      () => parseArrayMetadataV2(doc as never, undefined, "a/.zarray"),
      InvalidDataTypeError,
      /parsec/,
    );
  });
});
