import {
  ArrowFieldError,
  arrowDataType,
  arrowFieldFrom,
  arrowFieldToJson,
  parseArrowField,
} from "@z/dtypes-arrow";
import {
  type JsonValue,
  loadDataTypesFor,
  MapStore,
  MetadataError,
  openArray,
  resolveDataTypeV3,
  UnknownDataTypeError,
} from "@z/zarr";
import * as A from "apache-arrow";
import { describe, expect, it } from "vitest";
import { CASES } from "./cases.js";

const F = (name: string, type: A.DataType, nullable = true) => new A.Field(name, type, nullable);

/** The same fields as CASES, built with apache-arrow's own constructors (independently of this package). */
const APACHE_FIELDS: Record<string, A.Field> = {
  int8: F("v", new A.Int8()),
  uint8: F("v", new A.Uint8()),
  int16: F("v", new A.Int16()),
  uint16: F("v", new A.Uint16()),
  int32: F("v", new A.Int32()),
  uint32: F("v", new A.Uint32()),
  int64: F("v", new A.Int64()),
  uint64: F("v", new A.Uint64()),
  "int32 not nullable": F("v", new A.Int32(), false),
  float16: F("v", new A.Float16()),
  float32: F("v", new A.Float32()),
  float64: F("v", new A.Float64()),
  bool: F("v", new A.Bool()),
  date32: F("v", new A.DateDay()),
  date64: F("v", new A.DateMillisecond()),
  "time32[s]": F("v", new A.TimeSecond()),
  "time32[ms]": F("v", new A.TimeMillisecond()),
  "time64[us]": F("v", new A.TimeMicrosecond()),
  "time64[ns]": F("v", new A.TimeNanosecond()),
  "timestamp[s]": F("v", new A.TimestampSecond()),
  "timestamp[us, Europe/Paris]": F("v", new A.TimestampMicrosecond("Europe/Paris")),
  "timestamp[ns, +05:30]": F("v", new A.TimestampNanosecond("+05:30")),
  "duration[ms]": F("v", new A.DurationMillisecond()),
  "duration[ns]": F("v", new A.DurationNanosecond()),
  "interval[year_month]": F("v", new A.IntervalYearMonth()),
  "interval[day_time]": F("v", new A.IntervalDayTime()),
  "interval[month_day_nano]": F("v", new A.IntervalMonthDayNano()),
  "decimal128(10, 2)": F("v", new A.Decimal(2, 10, 128)),
  "decimal256(76, 10)": F("v", new A.Decimal(10, 76, 256)),
  "decimal32(7, 3)": F("v", new A.Decimal(3, 7, 32)),
  "decimal64(18, -2)": F("v", new A.Decimal(-2, 18, 64)),
  "fixedsizebinary[3]": F("v", new A.FixedSizeBinary(3)),
  utf8: F("v", new A.Utf8()),
  largeutf8: F("v", new A.LargeUtf8()),
  binary: F("v", new A.Binary()),
  largebinary: F("v", new A.LargeBinary()),
  utf8view: F("v", new A.Utf8View()),
  binaryview: F("v", new A.BinaryView()),
  "list<int32>": F("v", new A.List(F("item", new A.Int32()))),
  "largelist<utf8>": F("v", new A.LargeList(F("item", new A.Utf8(), false))),
  "fixedsizelist<float64>[3]": F("v", new A.FixedSizeList(3, F("item", new A.Float64()))),
  "list<list<int8>>": F("v", new A.List(F("item", new A.List(F("item", new A.Int8()))))),
  struct: F(
    "v",
    new A.Struct([
      F("a", new A.Int32(), false),
      F("b", new A.Utf8()),
      F("c", new A.List(F("item", new A.Bool()))),
    ]),
  ),
  "map<utf8, int64>": F(
    "v",
    new (A.Map_ as unknown as new (...args: unknown[]) => A.DataType)(
      F("entries", new A.Struct([F("key", new A.Utf8(), false), F("value", new A.Int64())]), false),
      false,
    ),
  ),
  "sparse union": F("v", new A.SparseUnion([0, 5], [F("i", new A.Int32()), F("s", new A.Utf8())])),
  "dense union": F(
    "v",
    new A.DenseUnion(
      [3, 1],
      [F("n", new A.Int16()), F("p", new A.Struct([F("x", new A.Float64(), false)]))],
    ),
  ),
  "dictionary<int8, utf8>": F("v", new A.Dictionary(new A.Utf8(), new A.Int8(), 0, false)),
  "dictionary<uint32, list<int32>>": F(
    "v",
    new A.Dictionary(new A.List(F("item", new A.Int32())), new A.Uint32(), 7, true),
  ),
  "struct with a dictionary member": F(
    "v",
    new A.Struct([
      F("cat", new A.Dictionary(new A.Utf8(), new A.Int16(), 1, false)),
      F("n", new A.Int8(), false),
    ]),
    false,
  ),
  null: F("v", new A.Null()),
  "list<null>": F("v", new A.List(F("item", new A.Null())), false),
};

/** apache-arrow's own JSON integration-test form of a field (RecordBatchJSONWriter's schema). */
async function apacheJson(field: A.Field): Promise<JsonValue> {
  const writer = A.RecordBatchJSONWriter.writeAll(new A.Table(new A.Schema([field])));
  const text = await writer.toString();
  return JSON.parse(text).schema.fields[0];
}

/** apache-arrow's JSON writer spells a struct "struct_" (the FlatBuffers enum name); the format says "struct". */
function specSpelling(json: JsonValue): JsonValue {
  return JSON.parse(JSON.stringify(json).replaceAll('"struct_"', '"struct"'));
}

describe("the metadata's field JSON is Arrow's JSON integration form", () => {
  it("covers every case", () => {
    expect(Object.keys(APACHE_FIELDS).sort()).toEqual(CASES.map((c) => c.label).sort());
  });

  for (const c of CASES) {
    it(`${c.label}: equals apache-arrow's RecordBatchJSONWriter output`, async () => {
      const ours = (arrowDataType(c.field).toV3() as { configuration: { field: JsonValue } })
        .configuration.field;
      const theirs = await apacheJson(APACHE_FIELDS[c.label]);
      // Exactly, member order included (apache-arrow omits "dictionary" when undefined).
      expect(JSON.stringify(ours)).toBe(JSON.stringify(specSpelling(theirs)));
      // And an apache-arrow Field converts to the same data type.
      expect(arrowDataType(APACHE_FIELDS[c.label]).toV3()).toEqual(arrowDataType(c.field).toV3());
    });
  }

  it("the only difference from apache-arrow's writer is its struct_ spelling, which reads too", async () => {
    const theirs = await apacheJson(APACHE_FIELDS.struct);
    expect(JSON.stringify(theirs)).toContain('"struct_"');
    expect(arrowFieldToJson(parseArrowField(theirs))).toEqual(specSpelling(theirs));
  });

  it("writes the data type as {name: arrow, configuration: {version, field}}", () => {
    const field = CASES.find((c) => c.label === "list<int32>")!.field;
    expect(arrowDataType(field).toV3()).toEqual({
      name: "arrow",
      configuration: {
        version: "0.1.0",
        field: {
          name: "v",
          nullable: true,
          type: { name: "list" },
          children: [
            {
              name: "item",
              nullable: true,
              type: { name: "int", bitWidth: 32, isSigned: true },
              children: [],
            },
          ],
        },
      },
    });
  });

  it("keeps custom metadata and normalises optional members", () => {
    const parsed = parseArrowField({
      name: "t",
      nullable: false,
      type: { name: "decimal", precision: 5, scale: 1 },
      metadata: [{ key: "unit", value: "kg" }],
    });
    expect(arrowFieldToJson(parsed)).toEqual({
      name: "t",
      nullable: false,
      type: { name: "decimal", scale: 1, precision: 5, bitWidth: 128 },
      children: [],
      metadata: [{ key: "unit", value: "kg" }],
    });
    const noMetadata = parseArrowField({
      name: "t",
      nullable: true,
      type: { name: "bool" },
      children: [],
      metadata: null,
    });
    expect(arrowFieldToJson(noMetadata)).toEqual({
      name: "t",
      nullable: true,
      type: { name: "bool" },
      children: [],
    });
  });

  it("converts apache-arrow DataTypes with a name and nullability", () => {
    expect(arrowFieldFrom(new A.Float32(), "x", false)).toEqual({
      name: "x",
      nullable: false,
      type: { name: "floatingpoint", precision: "SINGLE" },
      children: [],
    });
    expect(arrowDataType(new A.Utf8()).field).toEqual({
      name: "values",
      nullable: true,
      type: { name: "utf8" },
      children: [],
    });
  });
});

const BAD_FIELDS: [string, unknown, RegExp][] = [
  ["not an object", "int32", /must be a JSON object/],
  [
    "missing nullable",
    { name: "x", type: { name: "bool" }, children: [] },
    /field\.nullable must be true or false/,
  ],
  [
    "unknown type",
    { name: "x", nullable: true, type: { name: "int128" }, children: [] },
    /"int128" is not an Arrow type name/,
  ],
  [
    "a list view without its child",
    { name: "x", nullable: true, type: { name: "listview" }, children: [] },
    /children.*exactly 1 field/,
  ],
  [
    "run-end encoded without its two children",
    { name: "x", nullable: true, type: { name: "runendencoded" }, children: [] },
    /children.*exactly 2 fields/,
  ],
  [
    "run-end encoded with nullable or 8-bit run ends",
    {
      name: "x",
      nullable: true,
      type: { name: "runendencoded" },
      children: [
        {
          name: "run_ends",
          nullable: false,
          type: { name: "int", bitWidth: 8, isSigned: true },
          children: [],
        },
        { name: "values", nullable: true, type: { name: "utf8" }, children: [] },
      ],
    },
    /children\[0\].*run ends.*int16, int32 or int64/,
  ],
  [
    "bad bit width",
    {
      name: "x",
      nullable: true,
      type: { name: "int", bitWidth: 12, isSigned: true },
      children: [],
    },
    /bitWidth must be 8, 16, 32 or 64/,
  ],
  [
    "missing isSigned",
    { name: "x", nullable: true, type: { name: "int", bitWidth: 8 }, children: [] },
    /isSigned must be true or false/,
  ],
  [
    "bad precision",
    { name: "x", nullable: true, type: { name: "floatingpoint", precision: "QUAD" }, children: [] },
    /precision must be one of/,
  ],
  [
    "time width mismatch",
    {
      name: "x",
      nullable: true,
      type: { name: "time", unit: "NANOSECOND", bitWidth: 32 },
      children: [],
    },
    /must be 64 for unit NANOSECOND/,
  ],
  [
    "decimal too precise",
    {
      name: "x",
      nullable: true,
      type: { name: "decimal", precision: 40, scale: 2, bitWidth: 128 },
      children: [],
    },
    /precision must be an integer from 1 to 38/,
  ],
  [
    "list without child",
    { name: "x", nullable: true, type: { name: "list" }, children: [] },
    /children must hold exactly 1 field/,
  ],
  [
    "primitive with children",
    {
      name: "x",
      nullable: true,
      type: { name: "int", bitWidth: 8, isSigned: true },
      children: [{ name: "y", nullable: true, type: { name: "bool" }, children: [] }],
    },
    /must hold exactly 0 fields/,
  ],
  [
    "duplicate struct members",
    {
      name: "x",
      nullable: true,
      type: { name: "struct" },
      children: [
        { name: "a", nullable: true, type: { name: "bool" }, children: [] },
        { name: "a", nullable: true, type: { name: "utf8" }, children: [] },
      ],
    },
    /two members named "a"/,
  ],
  [
    "map of a non-struct",
    {
      name: "m",
      nullable: true,
      type: { name: "map", keysSorted: false },
      children: [{ name: "entries", nullable: false, type: { name: "utf8" }, children: [] }],
    },
    /non-nullable struct of two fields/,
  ],
  [
    "nullable map key",
    {
      name: "m",
      nullable: true,
      type: { name: "map", keysSorted: false },
      children: [
        {
          name: "entries",
          nullable: false,
          type: { name: "struct" },
          children: [
            { name: "key", nullable: true, type: { name: "utf8" }, children: [] },
            { name: "value", nullable: true, type: { name: "utf8" }, children: [] },
          ],
        },
      ],
    },
    /map key\) must not be nullable/,
  ],
  [
    "union ids mismatch",
    {
      name: "u",
      nullable: true,
      type: { name: "union", mode: "SPARSE", typeIds: [0] },
      children: [],
    },
    /one field per type id/,
  ],
  [
    "repeated union ids",
    {
      name: "u",
      nullable: true,
      type: { name: "union", mode: "DENSE", typeIds: [1, 1] },
      children: [],
    },
    /repeated ids/,
  ],
  [
    "dictionary index not int",
    {
      name: "d",
      nullable: true,
      type: { name: "utf8" },
      children: [],
      dictionary: { id: 0, indexType: { name: "utf8" }, isOrdered: false },
    },
    /indexType\.name must be "int"/,
  ],
  [
    "unknown member",
    { name: "x", nullable: true, type: { name: "bool" }, children: [], nulable: false },
    /unknown member "nulable"/,
  ],
  [
    "unknown type member",
    { name: "x", nullable: true, type: { name: "bool", bitWidth: 1 }, children: [] },
    /unknown member "bitWidth"/,
  ],
];

describe("field JSON that does not parse is an ArrowFieldError", () => {
  for (const [label, json, message] of BAD_FIELDS) {
    it(label, () => {
      const error = (() => {
        try {
          parseArrowField(json as JsonValue);
        } catch (e) {
          return e;
        }
      })();
      expect(error).toBeInstanceOf(ArrowFieldError);
      expect(error).toBeInstanceOf(MetadataError);
      expect((error as Error).name).toBe("ArrowFieldError");
      expect((error as Error).message).toMatch(message);
    });
  }

  it("names the nested member that is wrong", () => {
    expect(() =>
      parseArrowField({
        name: "s",
        nullable: true,
        type: { name: "struct" },
        children: [
          {
            name: "a",
            nullable: true,
            type: { name: "list" },
            children: [
              {
                name: "item",
                nullable: true,
                type: { name: "timestamp", unit: "HOUR" },
                children: [],
              },
            ],
          },
        ],
      }),
    ).toThrow(/field\.children\[0\]\.children\[0\]\.type\.unit must be one of/);
  });

  it("refuses a data_type with a wrong version, configuration or field", async () => {
    // The Arrow data type loads on first use; resolveDataTypeV3 is synchronous.
    await loadDataTypesFor({ data_type: "arrow" });
    const field = { name: "x", nullable: true, type: { name: "bool" }, children: [] };
    expect(
      resolveDataTypeV3({ name: "arrow", configuration: { version: "0.1.0", field } }).name,
    ).toBe("arrow<bool>");
    expect(() =>
      resolveDataTypeV3({ name: "arrow", configuration: { version: "0.2.0", field } }),
    ).toThrow(ArrowFieldError);
    expect(() => resolveDataTypeV3({ name: "arrow", configuration: { version: "0.1.0" } })).toThrow(
      /configuration\.field must be a JSON object/,
    );
    expect(() =>
      resolveDataTypeV3({ name: "arrow", configuration: { version: "0.1.0", field, extra: 1 } }),
    ).toThrow(/unknown member "extra"/);
    expect(() => resolveDataTypeV3("arrow")).toThrow(/needs a configuration/);
    expect(() => resolveDataTypeV3({ name: "arrows" })).toThrow(UnknownDataTypeError);
  });

  it("opening an array whose zarr.json has a bad field fails with the typed error", async () => {
    const store = new MapStore();
    const doc = {
      zarr_format: 3,
      node_type: "array",
      shape: [4],
      data_type: {
        name: "arrow",
        configuration: {
          version: "0.1.0",
          field: {
            name: "x",
            nullable: true,
            type: { name: "int", bitWidth: 7, isSigned: true },
            children: [],
          },
        },
      },
      chunk_grid: { name: "regular", configuration: { chunk_shape: [2] } },
      chunk_key_encoding: { name: "default", configuration: { separator: "/" } },
      fill_value: null,
      codecs: [{ name: "z.arrow-ipc", configuration: {} }],
      attributes: {},
    };
    await store.set("zarr.json", new TextEncoder().encode(JSON.stringify(doc)));
    await expect(openArray(store)).rejects.toThrow(ArrowFieldError);
    await expect(openArray(store)).rejects.toThrow(
      /data_type\.configuration\.field\.type\.bitWidth must be 8, 16, 32 or 64, got 7/,
    );
  });
});
