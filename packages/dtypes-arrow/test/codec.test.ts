import { type ChunkSpec, CodecPipeline, DecodeError, loadCodecs } from "@z/codecs";
import {
  type ArrowDataType,
  type ArrowField,
  ArrowSchemaMismatchError,
  arrowDataType,
  arrowVectorElements,
  readIpcStream,
} from "@z/dtypes-arrow";
import { type DataType, loadDataTypesFor, resolveDataTypeV3 } from "@z/metadata";
import { type Chunk, cOrderStrides } from "@z/ndarray";
import * as A from "apache-arrow";
import { beforeAll, describe, expect, it } from "vitest";
import { CASES, elements, field } from "./cases.js";

// The Arrow codec loads on first use (under each of its names); the tests build it synchronously.
beforeAll(() => loadCodecs(["z.arrow-ipc", "arrow-ipc", "arrow_ipc"]));

function specOf(dataType: DataType, shape: number[]): ChunkSpec {
  return { shape, dataType, fillValue: dataType.defaultFill };
}

function pipelineFor(
  dataType: DataType,
  shape: number[],
  codec = "z.arrow-ipc",
  configuration = {},
) {
  return CodecPipeline.create(
    [{ name: codec, configuration, mustUnderstand: true }],
    specOf(dataType, shape),
    3,
  );
}

function chunkOf(data: unknown[], shape: number[]): Chunk {
  return { data, shape, stride: cOrderStrides(shape) };
}

async function encoded(
  dataType: ArrowDataType,
  values: unknown[],
  shape = [values.length],
): Promise<Uint8Array> {
  return pipelineFor(dataType, shape).encode(chunkOf(values, shape));
}

/** The unscaled integer of a decimal string of the field's scale. */
function unscaled(text: string, scale: number): bigint {
  if (scale <= 0) return BigInt(text) / 10n ** BigInt(-scale);
  const [whole, fraction = ""] = text.split(".");
  return BigInt(`${whole}${fraction.padEnd(scale, "0")}`);
}

/**
 * What apache-arrow's `Vector.get` gives for an element, in this package's element form, as
 * apache-arrow's conventions define it (dates in milliseconds, decimals as unscaled integers,
 * intervals as Int32Arrays, rows as proxies).
 */
function fromApache(field: ArrowField, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  const t = field.type;
  switch (t.name) {
    case "date":
      return t.unit === "DAY" ? (value as number) / 86_400_000 : BigInt(value as number);
    case "timestamp": {
      const ms = value as number;
      const per = { SECOND: 1e-3, MILLISECOND: 1, MICROSECOND: 1e3, NANOSECOND: 1e6 }[t.unit];
      return BigInt(Math.round(ms * per));
    }
    case "interval": {
      const words = value as Int32Array;
      if (t.unit === "YEAR_MONTH") return words[0] * 12 + words[1];
      if (t.unit === "DAY_TIME") return { days: words[0], milliseconds: words[1] };
      const nanos = (BigInt(words[3]) << 32n) | BigInt(words[2] >>> 0);
      return { months: words[0], days: words[1], nanoseconds: nanos };
    }
    case "decimal": {
      // The two's-complement words (apache-arrow's own toString handles only 128 bits).
      const words = value as Uint32Array;
      let big = 0n;
      for (let k = words.length - 1; k >= 0; k--) big = (big << 32n) | BigInt(words[k]);
      return BigInt.asIntN(32 * words.length, big);
    }
    case "list":
    case "largelist":
    case "fixedsizelist":
      return Array.from(value as Iterable<unknown>, (item) => fromApache(field.children[0], item));
    case "struct": {
      const row = value as Record<string, unknown>;
      return Object.fromEntries(field.children.map((c) => [c.name, fromApache(c, row[c.name])]));
    }
    case "map": {
      const [k, v] = field.children[0].children;
      return Array.from(value as Iterable<[unknown, unknown]>, ([key, item]) => [
        fromApache(k, key),
        fromApache(v, item),
      ]);
    }
    default:
      return value;
  }
}

/** The element form of a value compared with {@link fromApache} (decimals unscaled, unions as their value). */
function comparable(field: ArrowField, value: unknown): unknown {
  if (value === null) return null;
  const t = field.type;
  switch (t.name) {
    case "decimal":
      return unscaled(value as string, t.scale);
    case "timestamp":
      // apache-arrow returns milliseconds as a double: compare at that precision.
      return t.unit === "NANOSECOND" ? fromApache(field, Number(value as bigint) / 1e6) : value;
    case "union": {
      const { typeId, value: member } = value as { typeId: number; value: unknown };
      return comparable(field.children[t.typeIds.indexOf(typeId)], member);
    }
    case "list":
    case "largelist":
    case "fixedsizelist":
      return (value as unknown[]).map((item) => comparable(field.children[0], item));
    case "struct": {
      const row = value as Record<string, unknown>;
      return Object.fromEntries(field.children.map((c) => [c.name, comparable(c, row[c.name])]));
    }
    case "map": {
      const [k, v] = field.children[0].children;
      return (value as [unknown, unknown][]).map(([key, item]) => [
        comparable(k, key),
        comparable(v, item),
      ]);
    }
    default:
      return value;
  }
}

describe("z.arrow-ipc round trips every type family", () => {
  for (const c of CASES) {
    it(`${c.label}: decodes what it encodes, and apache-arrow's tableFromIPC reads the same values`, async () => {
      const dataType = arrowDataType(c.field);
      const shape = [3, 7];
      const values = elements(c, 21);
      const pipeline = pipelineFor(dataType, shape);
      const bytes = await pipeline.encode(chunkOf(values, shape));
      const decoded = await pipeline.decode(bytes);
      expect(decoded.shape).toEqual(shape);
      expect(decoded.data).toEqual(values);

      const table = A.tableFromIPC(bytes);
      expect(table.numRows).toBe(21);
      expect(table.schema.fields.map((f) => f.name)).toEqual([c.field.name]);
      const column = table.getChildAt(0)!;
      const field = c.field.dictionary ? { ...c.field, dictionary: undefined } : c.field;
      const theirs = Array.from({ length: 21 }, (_, i) => {
        const value = column.get(i);
        if (field.type.name !== "union") return fromApache(field, value);
        // apache-arrow gives a union's value alone; its type id says which member it is.
        const typeId = column.data[0].typeIds[i];
        return fromApache(field.children[field.type.typeIds.indexOf(typeId)], value);
      });
      expect(theirs).toEqual(values.map((v) => comparable(field, v)));
    });
  }

  it("writes one schema, the dictionary batches, one record batch and the end marker", async () => {
    const c = CASES.find((x) => x.label === "dictionary<int8, utf8>")!;
    const bytes = await encoded(arrowDataType(c.field), elements(c, 10));
    const reader = new A.MessageReader(bytes);
    const types: number[] = [];
    for (let m = reader.readMessage(); m; m = reader.readMessage()) {
      types.push(m.headerType);
      reader.readMessageBody(m.bodyLength);
    }
    expect(types).toEqual([
      A.MessageHeader.Schema,
      A.MessageHeader.DictionaryBatch,
      A.MessageHeader.RecordBatch,
    ]);
    expect(A.tableFromIPC(bytes).numCols).toBe(1);
    // The stream ends with the continuation marker and a zero length.
    expect([...bytes.subarray(bytes.length - 8)]).toEqual([255, 255, 255, 255, 0, 0, 0, 0]);
  });
});

describe("the reader reads what apache-arrow's builders and writer produce", () => {
  const I = (name: string, type: A.DataType, nullable = true) => new A.Field(name, type, nullable);
  const cases: [string, A.Vector, unknown[]][] = [
    ["int16", A.vectorFromArray([1, null, -3], new A.Int16()), [1, null, -3]],
    ["uint64", A.vectorFromArray([2n ** 64n - 1n, null], new A.Uint64()), [2n ** 64n - 1n, null]],
    ["float32", A.vectorFromArray([1.5, null, -0], new A.Float32()), [1.5, null, -0]],
    ["bool", A.vectorFromArray([true, null, false, true], new A.Bool()), [true, null, false, true]],
    ["utf8", A.vectorFromArray(["a", null, "日本", ""], new A.Utf8()), ["a", null, "日本", ""]],
    ["large utf8", A.vectorFromArray(["x", null], new A.LargeUtf8()), ["x", null]],
    [
      "binary",
      A.vectorFromArray([new Uint8Array([1, 2]), null], new A.Binary()),
      [new Uint8Array([1, 2]), null],
    ],
    ["date32", A.vectorFromArray([new Date(86_400_000 * 3), null], new A.DateDay()), [3, null]],
    [
      "timestamp[ms]",
      A.vectorFromArray([1700000000123, null], new A.TimestampMillisecond()),
      [1700000000123n, null],
    ],
    [
      "list<int32>",
      A.vectorFromArray([[1, 2], null, [], [null]], new A.List(I("item", new A.Int32()))),
      [[1, 2], null, [], [null]],
    ],
    [
      "fixed-size list",
      A.vectorFromArray([[1, 2], null, [3, 4]], new A.FixedSizeList(2, I("item", new A.Int8()))),
      [[1, 2], null, [3, 4]],
    ],
    [
      "struct",
      A.vectorFromArray(
        [{ a: 1, b: "x" }, null, { a: 2, b: null }],
        new A.Struct([I("a", new A.Int32()), I("b", new A.Utf8())]),
      ),
      [{ a: 1, b: "x" }, null, { a: 2, b: null }],
    ],
    [
      "map",
      A.vectorFromArray(
        [new Map([["a", 1]]), null, new Map()],
        new (A.Map_ as unknown as new (...args: unknown[]) => A.DataType)(
          I(
            "entries",
            new A.Struct([I("key", new A.Utf8(), false), I("value", new A.Int32())]),
            false,
          ),
        ),
      ),
      [[["a", 1]], null, []],
    ],
    [
      "dictionary",
      A.vectorFromArray(["b", "a", null, "b"], new A.Dictionary(new A.Utf8(), new A.Int32())),
      ["b", "a", null, "b"],
    ],
    [
      "a slice",
      A.vectorFromArray(["p", "q", null, "r", "s"], new A.Utf8()).slice(1, 4),
      ["q", null, "r"],
    ],
    [
      "chunks",
      A.vectorFromArray([1, 2], new A.Int32()).concat(A.vectorFromArray([null, 4], new A.Int32())),
      [1, 2, null, 4],
    ],
  ];
  for (const [label, vector, expected] of cases) {
    it(label, async () => {
      const { elements: got } = await arrowVectorElements(vector);
      expect(got).toEqual(expected);
    });
  }
});

describe("the arrow-ipc codec (zarr-extensions proposal)", () => {
  it("reads the column_name column of a stream with several columns", async () => {
    const table = new A.Table({
      other: A.vectorFromArray(["x", "y", "z", "w"], new A.Utf8()),
      temperature: A.vectorFromArray([1.5, null, 3, 4], new A.Float64()),
    });
    const bytes = A.tableToIPC(table, "stream");
    const float64 = resolveDataTypeV3("float64");
    const native = pipelineFor(float64, [2, 2], "arrow-ipc", { column_name: "temperature" });
    const spec = { ...specOf(float64, [2, 2]), fillValue: -1 };
    const decoded = await CodecPipeline.create(
      [{ name: "arrow-ipc", configuration: { column_name: "temperature" }, mustUnderstand: true }],
      spec,
      3,
    ).decode(bytes);
    // Nulls become the fill value.
    expect(Array.from(decoded.data as Float64Array)).toEqual([1.5, -1, 3, 4]);
    expect(native.toJson()).toEqual([
      { name: "arrow-ipc", configuration: { column_name: "temperature" }, mustUnderstand: true },
    ]);

    const asArrow = arrowDataType({
      name: "whatever",
      nullable: true,
      type: { name: "floatingpoint", precision: "DOUBLE" },
      children: [],
    });
    const arrow = await pipelineFor(asArrow, [4], "arrow-ipc", {
      column_name: "temperature",
    }).decode(bytes);
    expect(arrow.data).toEqual([1.5, null, 3, 4]);
    await expect(
      pipelineFor(asArrow, [4], "arrow-ipc", { column_name: "missing" }).decode(bytes),
    ).rejects.toThrow(/no column named "missing" \(it has "other", "temperature"\)/);
  });

  it("writes the arrow data type under column_name", async () => {
    const dataType = arrowDataType(
      field("values", { name: "list" }, true, [field("item", { name: "utf8" })]),
    );
    const pipeline = pipelineFor(dataType, [2], "arrow-ipc", { column_name: "tags" });
    const bytes = await pipeline.encode(chunkOf([["a", null], null], [2]));
    const table = A.tableFromIPC(bytes);
    expect(table.schema.fields[0].name).toBe("tags");
    expect((await pipeline.decode(bytes)).data).toEqual([["a", null], null]);
  });

  it("stores Zarr's own types as Arrow columns that apache-arrow reads", async () => {
    const cases: [string, unknown[], (v: A.Vector) => unknown[]][] = [
      ["int64", [1n, -2n, 2n ** 62n], (v) => [...v]],
      ["uint8", [0, 255, 7], (v) => [...v]],
      ["float32", [0.5, -1, 3], (v) => [...v]],
      ["bool", [true, false, true], (v) => [...v]],
    ];
    for (const [name, values, read] of cases) {
      const dataType = resolveDataTypeV3(name);
      const data = dataType.create(3);
      values.forEach((v, i) => {
        dataType.setElement(data, i, v);
      });
      const pipeline = pipelineFor(dataType, [3], "arrow-ipc", { column_name: name });
      const bytes = await pipeline.encode(chunkOf(data as unknown as unknown[], [3]));
      const table = A.tableFromIPC(bytes);
      expect(table.schema.fields[0].name).toBe(name);
      expect(read(table.getChild(name)!)).toEqual(values);
      const back = await pipeline.decode(bytes);
      expect(
        Array.from(back.data as ArrayLike<unknown>, (_, i) => dataType.getElement(back.data, i)),
      ).toEqual(values);
    }
  });

  it("reads the prototype's arrow_ipc spelling and defaults the column to zarr_array", async () => {
    const bytes = A.tableToIPC(
      new A.Table({ zarr_array: A.vectorFromArray([7, 8], new A.Int32()) }),
      "stream",
    );
    const int32 = resolveDataTypeV3("int32");
    const decoded = await pipelineFor(int32, [2], "arrow_ipc").decode(bytes);
    expect(Array.from(decoded.data as Int32Array)).toEqual([7, 8]);
  });

  it("refuses a column of another type (typed error)", async () => {
    const bytes = A.tableToIPC(
      new A.Table({ zarr_array: A.vectorFromArray(["a"], new A.Utf8()) }),
      "stream",
    );
    const error = await pipelineFor(resolveDataTypeV3("int32"), [1], "arrow-ipc")
      .decode(bytes)
      .catch((e) => e);
    expect(error).toBeInstanceOf(ArrowSchemaMismatchError);
    expect(error.message).toMatch(/does not read as int32/);
  });

  it("refuses configurations it does not know and data types it cannot store", async () => {
    const int32 = resolveDataTypeV3("int32");
    expect(() => pipelineFor(int32, [1], "arrow-ipc", { column: "x" })).toThrow(
      /unknown configuration member "column"/,
    );
    expect(() => pipelineFor(int32, [1], "z.arrow-ipc")).toThrow(
      /stores arrays of the arrow data type/,
    );
    await loadDataTypesFor({ data_type: "complex64" });
    expect(() => pipelineFor(resolveDataTypeV3("complex64"), [1], "arrow-ipc")).toThrow(
      /this array's data type is complex64/,
    );
    const arrow = arrowDataType(field("v", { name: "bool" }));
    expect(() => pipelineFor(arrow, [1], "z.arrow-ipc", { column_name: "v" })).toThrow(
      /unknown configuration member "column_name" \(it has body_compression\)/,
    );
    await expect(pipelineFor(arrow, [1], "bytes").encode(chunkOf([true], [1]))).rejects.toThrow(
      /use the "z.arrow-ipc" codec/,
    );
  });
});

it("custom field metadata (an extension type) is written, read and compared", async () => {
  const uuid: ArrowField = {
    ...field("id", { name: "fixedsizebinary", byteWidth: 16 }),
    metadata: [{ key: "ARROW:extension:name", value: "arrow.uuid" }],
  };
  const values = [new Uint8Array(16).fill(1), null];
  const bytes = await encoded(arrowDataType(uuid), values);
  expect(A.tableFromIPC(bytes).schema.fields[0].metadata.get("ARROW:extension:name")).toBe(
    "arrow.uuid",
  );
  expect((await pipelineFor(arrowDataType(uuid), [2]).decode(bytes)).data).toEqual(values);
  const plain = { ...uuid, metadata: undefined };
  await expect(pipelineFor(arrowDataType(plain), [2]).decode(bytes)).rejects.toThrow(
    /has custom metadata/,
  );
});

describe("IPC bytes whose schema differs from the metadata are a typed error", () => {
  const int32 = field("v", { name: "int", bitWidth: 32, isSigned: true });
  const mismatches: [string, ArrowField, RegExp][] = [
    [
      "another type",
      field("v", { name: "int", bitWidth: 64, isSigned: true }),
      /has type .*"bitWidth":32.* not .*"bitWidth":64/,
    ],
    ["another name", field("w", int32.type), /is named "v", not "w"/],
    [
      "another nullability",
      field("v", int32.type, false),
      /is nullable; the metadata says it is not/,
    ],
    [
      "another child",
      field("v", { name: "list" }, true, [field("item", { name: "utf8" })]),
      /has type \{"name":"int".*not \{"name":"list"\}/,
    ],
  ];
  for (const [label, expected, message] of mismatches) {
    it(label, async () => {
      const bytes = await encoded(arrowDataType(int32), [1, 2, null]);
      const error = await pipelineFor(arrowDataType(expected), [3])
        .decode(bytes)
        .catch((e) => e);
      expect(error).toBeInstanceOf(ArrowSchemaMismatchError);
      expect(error).toBeInstanceOf(DecodeError);
      expect(error.name).toBe("ArrowSchemaMismatchError");
      expect(error.message).toMatch(message);
    });
  }

  it("nested differences name the child", async () => {
    const written = field("v", { name: "struct" }, true, [
      field("a", { name: "utf8" }),
      field("b", { name: "bool" }),
    ]);
    const expected = field("v", { name: "struct" }, true, [
      field("a", { name: "utf8" }),
      field("b", { name: "bool" }, false),
    ]);
    const bytes = await encoded(arrowDataType(written), [{ a: "x", b: true }]);
    await expect(pipelineFor(arrowDataType(expected), [1]).decode(bytes)).rejects.toThrow(
      /the stream's field\.children\[1\] is nullable/,
    );
  });

  it("a dictionary index type or a missing dictionary differs", async () => {
    const dict = CASES.find((c) => c.label === "dictionary<int8, utf8>")!.field;
    const bytes = await encoded(arrowDataType(dict), ["a", "b"]);
    const wider = {
      ...dict,
      dictionary: {
        ...dict.dictionary!,
        indexType: { name: "int" as const, bitWidth: 16 as const, isSigned: true },
      },
    };
    await expect(pipelineFor(arrowDataType(wider), [2]).decode(bytes)).rejects.toThrow(
      /dictionary indices of type int8, not int16/,
    );
    const plain = { ...dict, dictionary: undefined };
    await expect(pipelineFor(arrowDataType(plain), [2]).decode(bytes)).rejects.toThrow(
      /is dictionary-encoded; the metadata says it is not/,
    );
  });

  it("a stream with two columns, or another element count, is refused", async () => {
    const two = A.tableToIPC(
      new A.Table({
        v: A.vectorFromArray([1], new A.Int32()),
        w: A.vectorFromArray([2], new A.Int32()),
      }),
      "stream",
    );
    await expect(pipelineFor(arrowDataType(int32), [1]).decode(two)).rejects.toThrow(
      ArrowSchemaMismatchError,
    );
    const bytes = await encoded(arrowDataType(int32), [1, 2, 3]);
    await expect(pipelineFor(arrowDataType(int32), [4]).decode(bytes)).rejects.toThrow(
      /holds 3 elements; the chunk has 4/,
    );
  });

  it("a stream whose column has another type (utf8view for utf8) is a mismatch, not a crash", async () => {
    const view = A.tableToIPC(
      new A.Table({ v: A.vectorFromArray(["a", "b"], new A.Utf8View()) }),
      "stream",
    );
    await expect(
      pipelineFor(arrowDataType(field("v", { name: "utf8" })), [2]).decode(view),
    ).rejects.toThrow(ArrowSchemaMismatchError);
  });
});

describe("bounded decoding of hostile input", () => {
  const c = CASES.find((x) => x.label === "struct")!;
  const dataType = arrowDataType(c.field);
  const values = elements(c, 12);

  function expectDecodeError(bytes: Uint8Array, shape = [12], type: DataType = dataType): void {
    const started = performance.now();
    let error: unknown;
    try {
      const codec = pipelineFor(type, shape).arrayToBytes;
      codec.codec.decode(bytes, codec.spec);
    } catch (e) {
      error = e;
    }
    expect(error, "decoding must fail").toBeInstanceOf(DecodeError);
    expect(performance.now() - started).toBeLessThan(500);
  }

  it("every truncation is a DecodeError", async () => {
    const bytes = await encoded(dataType, values);
    for (let n = 0; n < bytes.length - 8; n++) expectDecodeError(bytes.subarray(0, n));
  });

  it("random corruption gives a DecodeError or the right number of elements, never another error", async () => {
    const bytes = await encoded(dataType, values);
    let seed = 12345;
    const random = () => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed / 0x7fffffff;
    };
    let failures = 0;
    for (let round = 0; round < 3000; round++) {
      const copy = bytes.slice();
      const flips = 1 + Math.floor(random() * 4);
      for (let k = 0; k < flips; k++)
        copy[Math.floor(random() * copy.length)] = Math.floor(random() * 256);
      try {
        const codec = pipelineFor(dataType, [12]).arrayToBytes;
        const chunk = codec.codec.decode(copy, codec.spec) as Chunk;
        expect(chunk.data).toHaveLength(12);
      } catch (e) {
        expect(e).toBeInstanceOf(DecodeError);
        failures++;
      }
    }
    expect(failures).toBeGreaterThan(100);
  });

  /** A little-endian int64 at a position of a copy. */
  function patch64(bytes: Uint8Array, at: number, value: bigint): Uint8Array {
    const copy = bytes.slice();
    new DataView(copy.buffer).setBigInt64(at, value, true);
    return copy;
  }

  /** Positions of a little-endian int64 value in the bytes. */
  function find64(bytes: Uint8Array, value: bigint, from = 0): number[] {
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const out: number[] = [];
    for (let i = from; i + 8 <= bytes.length; i++)
      if (view.getBigInt64(i, true) === value) out.push(i);
    return out;
  }

  it("a metadata length past the end is refused before anything is read", async () => {
    const bytes = await encoded(dataType, values);
    const copy = bytes.slice();
    new DataView(copy.buffer).setUint32(4, 0x7ffffff0, true);
    expectDecodeError(copy);
  });

  it("huge row counts, node lengths, null counts and buffer ranges are refused", async () => {
    const simple = arrowDataType(field("v", { name: "int", bitWidth: 32, isSigned: true }));
    const bytes = await encoded(simple, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    // The record batch's length and its one field node (length 12) are int64s in the metadata.
    const positions = find64(bytes, 12n);
    expect(positions.length).toBeGreaterThan(0);
    for (const at of positions) {
      expectDecodeError(patch64(bytes, at, 2n ** 40n), [12], simple);
      expectDecodeError(patch64(bytes, at, -1n), [12], simple);
    }
    // The values buffer is 48 bytes long: claim far more.
    for (const at of find64(bytes, 48n))
      expectDecodeError(patch64(bytes, at, 2n ** 50n), [12], simple);
  });

  it("a null-type column claiming 2^40 elements is refused (elements need bytes)", async () => {
    const nulls = arrowDataType(
      field("v", { name: "list" }, true, [field("item", { name: "null" })]),
    );
    const bytes = await encoded(nulls, [[null, null], [null]]);
    // The child node has length 3: make it claim 2^40, with offsets to match is not needed to trip the bound.
    const positions = find64(bytes, 3n);
    let refused = 0;
    for (const at of positions) {
      try {
        const codec = pipelineFor(nulls, [2]).arrayToBytes;
        codec.codec.decode(patch64(bytes, at, 2n ** 40n), codec.spec);
      } catch (e) {
        expect(e).toBeInstanceOf(DecodeError);
        refused++;
      }
    }
    expect(refused).toBeGreaterThan(0);
    expect(() => readIpcStream(bytes, { maxElements: 4 })).toThrow(
      /more array elements than its size allows/,
    );
  });

  it("non-streams are refused with a clear message", async () => {
    expectDecodeError(new TextEncoder().encode("ARROW1\0\0 not a stream at all"));
    expectDecodeError(new Uint8Array(0));
    const bytes = await encoded(dataType, values);
    expect(() => readIpcStream(bytes.subarray(0, 8))).toThrow(DecodeError);
  });
});
