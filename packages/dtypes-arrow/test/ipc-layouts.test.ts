// The Arrow layouts and IPC features beyond the basic ones: utf8 and binary views, run-end
// encoding, dictionary deltas and compressed bodies (LZ4_FRAME, ZSTD). Streams apache-arrow
// cannot write are built message by message with Arrow's own FlatBuffers code (ipc-builder.ts)
// and bodies laid out by hand from the columnar format spec; apache-arrow's reader and the lz4
// and zstd command line tools check what is written.
import { execFileSync } from "node:child_process";
import {
  type ChunkSpec,
  CodecConfigError,
  CodecPipeline,
  DecodeError,
  loadCodecs,
} from "@z/codecs";
import { arrowDataType, readIpcStream, readIpcStreamAsync } from "@z/dtypes-arrow";
import { type DataType, resolveDataTypeV3 } from "@z/metadata";
import { type Chunk, cOrderStrides } from "@z/ndarray";
import "@z/zarr"; // registers Zarr's string and bytes data types
import * as A from "apache-arrow";
import { beforeAll, describe, expect, it } from "vitest";
import { CASES, elements, field } from "./cases.js";
import {
  concat,
  dictionaryBatchMessage,
  END_OF_STREAM,
  type FieldSpec,
  int32s,
  recordBatchMessage,
  schemaMessage,
  utf8Buffers,
  viewOf,
} from "./ipc-builder.js";

// The Arrow codec loads on first use (under each of its names); the tests build it synchronously.
beforeAll(() => loadCodecs(["z.arrow-ipc", "arrow-ipc", "arrow_ipc"]));

const text = (s: string) => new TextEncoder().encode(s);

function pipelineFor(
  dataType: DataType,
  shape: number[],
  codec = "z.arrow-ipc",
  configuration = {},
) {
  const spec: ChunkSpec = { shape, dataType, fillValue: dataType.defaultFill };
  return CodecPipeline.create([{ name: codec, configuration, mustUnderstand: true }], spec, 3);
}

function chunkOf(data: unknown[], shape: number[]): Chunk {
  return { data, shape, stride: cOrderStrides(shape) };
}

/** Runs `f` with apache-arrow able to decode compressed bodies through the lz4 and zstd tools. */
function withToolCodecs<T>(f: () => T): T {
  const registry = A.compressionRegistry as unknown as { registry: Record<number, unknown> };
  const saved = { ...registry.registry };
  registry.registry[A.CompressionType.LZ4_FRAME] = {
    decode: (d: Uint8Array) => new Uint8Array(execFileSync("lz4", ["-d", "-c"], { input: d })),
  };
  registry.registry[A.CompressionType.ZSTD] = {
    decode: (d: Uint8Array) => new Uint8Array(execFileSync("zstd", ["-d", "-c"], { input: d })),
  };
  try {
    return f();
  } finally {
    registry.registry = saved;
  }
}

/** Writes a table with apache-arrow, compressing its buffers with the lz4 or zstd tool. */
function toolCompressedStream(table: A.Table, codec: "lz4" | "zstd"): Uint8Array {
  const type = codec === "lz4" ? A.CompressionType.LZ4_FRAME : A.CompressionType.ZSTD;
  const registry = A.compressionRegistry as unknown as { registry: Record<number, unknown> };
  const saved = { ...registry.registry };
  A.compressionRegistry.set(type, {
    encode: (d: Uint8Array) =>
      new Uint8Array(
        execFileSync(codec, codec === "lz4" ? ["-z", "-c", "-BD"] : ["-c", "-19"], { input: d }),
      ),
  });
  try {
    return A.RecordBatchStreamWriter.writeAll(table, {
      compressionType: type,
    } as never).toUint8Array(true);
  } finally {
    registry.registry = saved;
  }
}

describe("utf8 and binary views", () => {
  const values = [
    text("short"),
    null,
    text("exactly12byt"),
    text("thirteen byte"),
    new Uint8Array(0),
    text("a longer value that lives in the second data buffer"),
  ];
  const bufferA = concat(new Uint8Array(3), text("thirteen byte"));
  const bufferB = text("xxa longer value that lives in the second data buffer");
  const views = concat(
    viewOf(values[0]!),
    new Uint8Array(16),
    viewOf(values[2]!),
    viewOf(values[3]!, 0, 3),
    viewOf(values[4]!),
    viewOf(values[5]!, 1, 2),
  );
  const validity = new Uint8Array([0b111101]);

  function viewStream(
    type: "binaryview" | "utf8view",
    patch?: (v: Uint8Array) => void,
    counts = [2],
  ) {
    const copy = views.slice();
    patch?.(copy);
    return concat(
      schemaMessage([{ name: "v", nullable: true, type }]),
      recordBatchMessage({
        length: 6,
        nodes: [[6, 1]],
        buffers: [validity, copy, bufferA, bufferB],
        variadicBufferCounts: counts,
      }),
      END_OF_STREAM,
    );
  }

  it("reads inline and out-of-line views over two data buffers, as apache-arrow does", () => {
    const bytes = viewStream("binaryview");
    expect(readIpcStream(bytes).elements).toEqual(values);
    const theirs = A.tableFromIPC(bytes).getChildAt(0)!;
    expect(Array.from({ length: 6 }, (_, i) => theirs.get(i))).toEqual(values);
    const strings = readIpcStream(viewStream("utf8view")).elements;
    expect(strings).toEqual(values.map((v) => (v === null ? null : new TextDecoder().decode(v))));
  });

  it("writes views apache-arrow reads, laid out as the spec says (checked field by field)", async () => {
    const f = field("v", { name: "utf8view" });
    const items = ["tiny", null, "twelve bytes", "more than twelve bytes", "", "é and more bytes"];
    const bytes = await pipelineFor(arrowDataType(f), [6]).encode(chunkOf(items, [6]));
    const data = A.tableFromIPC(bytes).getChildAt(0)!.data[0] as unknown as {
      values: Uint8Array;
      variadicBuffers: Uint8Array[];
    };
    const raw = new Uint8Array(data.values.buffer, data.values.byteOffset, 16 * 6);
    const dv = new DataView(raw.buffer, raw.byteOffset, raw.byteLength);
    let expectedOffset = 0;
    items.forEach((item, i) => {
      if (item === null) return;
      const b = text(item);
      expect(dv.getInt32(i * 16, true), `length of ${i}`).toBe(b.length);
      if (b.length <= 12) {
        expect([...raw.subarray(i * 16 + 4, i * 16 + 4 + b.length)]).toEqual([...b]);
      } else {
        expect([...raw.subarray(i * 16 + 4, i * 16 + 8)]).toEqual([...b.subarray(0, 4)]);
        expect(dv.getInt32(i * 16 + 8, true)).toBe(0);
        expect(dv.getInt32(i * 16 + 12, true)).toBe(expectedOffset);
        const buffer = data.variadicBuffers[0];
        expect([...buffer.subarray(expectedOffset, expectedOffset + b.length)]).toEqual([...b]);
        expectedOffset += b.length;
      }
    });
    expect((await pipelineFor(arrowDataType(f), [6]).decode(bytes)).data).toEqual(items);
  });

  it("the arrow-ipc codec reads a view column by its name", async () => {
    const dataType = arrowDataType(field("anything", { name: "binaryview" }));
    const chunk = await pipelineFor(dataType, [6], "arrow-ipc", { column_name: "v" }).decode(
      viewStream("binaryview"),
    );
    expect(chunk.data).toEqual(values);
  });

  it("the arrow-ipc codec reads view columns into Zarr strings and bytes", async () => {
    const strings = resolveDataTypeV3("string");
    const chunk = await pipelineFor(strings, [6], "arrow-ipc", { column_name: "v" }).decode(
      viewStream("utf8view"),
    );
    expect(Array.from({ length: 6 }, (_, i) => strings.getElement(chunk.data, i))).toEqual([
      "short",
      "", // null reads as the fill value
      "exactly12byt",
      "thirteen byte",
      "",
      "a longer value that lives in the second data buffer",
    ]);
    const bytes = resolveDataTypeV3("bytes");
    const raw = await pipelineFor(bytes, [6], "arrow-ipc", { column_name: "v" }).decode(
      viewStream("binaryview"),
    );
    expect(Array.from({ length: 6 }, (_, i) => bytes.getElement(raw.data, i))).toEqual(
      values.map((v) => v ?? new Uint8Array(0)),
    );
  });

  it("hostile views are a DecodeError naming the problem", () => {
    const set32 = (at: number, value: number) => (v: Uint8Array) =>
      new DataView(v.buffer).setInt32(at, value, true);
    const cases: [string, Uint8Array, RegExp][] = [
      [
        "offset past the buffer",
        viewStream("binaryview", set32(3 * 16 + 12, 100)),
        /past its 16-byte data buffer/,
      ],
      ["length past the buffer", viewStream("binaryview", set32(3 * 16, 1 << 30)), /past its/],
      ["negative length", viewStream("binaryview", set32(0, -5)), /length -5/],
      [
        "unknown data buffer",
        viewStream("binaryview", set32(3 * 16 + 8, 7)),
        /data buffer 7.*it has 2/,
      ],
      ["negative offset", viewStream("binaryview", set32(5 * 16 + 12, -1)), /offset -1/],
      [
        "prefix that differs",
        viewStream("binaryview", (v) => {
          v[3 * 16 + 5] ^= 1;
        }),
        /prefix differs/,
      ],
      [
        "invalid UTF-8",
        viewStream("utf8view", (v) => {
          v[4] = 0xff;
        }),
        /invalid UTF-8/,
      ],
      [
        "a huge variadic count",
        viewStream("binaryview", undefined, [2 ** 40]),
        /claims 1099511627776 data buffers/,
      ],
      [
        "no variadic count",
        viewStream("binaryview", undefined, []),
        /lacks the variadic buffer count/,
      ],
      ["a count too small", viewStream("binaryview", undefined, [1]), /data buffer 1.*it has 1/],
    ];
    for (const [label, bytes, message] of cases) {
      expect(() => readIpcStream(bytes), label).toThrow(DecodeError);
      expect(() => readIpcStream(bytes), label).toThrow(message);
    }
  });

  it("views that all point at the same bytes cannot blow up the result", () => {
    // 4096 views of one 60 KiB value: 240 MiB of elements from a 125 KiB stream.
    const big = new Uint8Array(60 * 1024).fill(7);
    const n = 4096;
    const one = viewOf(big, 0, 0);
    const allViews = new Uint8Array(16 * n);
    for (let i = 0; i < n; i++) allViews.set(one, i * 16);
    const bytes = concat(
      schemaMessage([{ name: "v", nullable: false, type: "binaryview" }]),
      recordBatchMessage({
        length: n,
        nodes: [[n, 0]],
        buffers: [new Uint8Array(0), allViews, big],
        variadicBufferCounts: [1],
      }),
      END_OF_STREAM,
    );
    expect(() => readIpcStream(bytes)).toThrow(/views that add up to more bytes/);
    // A few such views are fine.
    const few = readIpcStream(
      concat(
        schemaMessage([{ name: "v", nullable: false, type: "binaryview" }]),
        recordBatchMessage({
          length: 3,
          nodes: [[3, 0]],
          buffers: [new Uint8Array(0), allViews.subarray(0, 48), big],
          variadicBufferCounts: [1],
        }),
        END_OF_STREAM,
      ),
    );
    expect(few.elements).toEqual([big, big, big]);
  });
});

describe("run-end encoding (read)", () => {
  const ree = (runEnds: FieldSpec["type"]): FieldSpec => ({
    name: "v",
    nullable: true,
    type: "runendencoded",
    children: [
      { name: "run_ends", nullable: false, type: runEnds },
      { name: "values", nullable: true, type: "utf8" },
    ],
  });
  const [offsets, data] = utf8Buffers(["a", "", "ccc"]);

  function reeStream(ends: number[], width: 16 | 32 | 64 = 32, length = 7): Uint8Array {
    const endsBytes =
      width === 16
        ? new Uint8Array(Int16Array.from(ends).buffer)
        : width === 32
          ? int32s(...ends)
          : new Uint8Array(BigInt64Array.from(ends.map(BigInt)).buffer);
    return concat(
      schemaMessage([ree(`int${width}` as FieldSpec["type"])]),
      recordBatchMessage({
        length,
        // The run-end encoded array has no buffers; its children are the run ends and the values.
        nodes: [
          [length, 0],
          [ends.length, 0],
          [3, 1],
        ],
        buffers: [new Uint8Array(0), endsBytes, new Uint8Array([0b101]), offsets, data],
      }),
      END_OF_STREAM,
    );
  }

  const expected = ["a", "a", "a", null, null, "ccc", "ccc"];

  it.each([16, 32, 64] as const)("reads int%i run ends", (width) => {
    expect(readIpcStream(reeStream([3, 5, 7], width)).elements).toEqual(expected);
  });

  it("reads through the arrow data type and the arrow-ipc codec", async () => {
    const { field: f } = readIpcStream(reeStream([3, 5, 7]));
    expect(f.type.name).toBe("runendencoded");
    const dataType = arrowDataType(f);
    expect((await pipelineFor(dataType, [7]).decode(reeStream([3, 5, 7]))).data).toEqual(expected);
    const chunk = await pipelineFor(dataType, [7], "arrow-ipc", { column_name: "v" }).decode(
      reeStream([3, 5, 7]),
    );
    expect(chunk.data).toEqual(expected);
    const strings = resolveDataTypeV3("string");
    const native = await pipelineFor(strings, [7], "arrow-ipc", { column_name: "v" }).decode(
      reeStream([3, 5, 7]),
    );
    expect(Array.from({ length: 7 }, (_, i) => strings.getElement(native.data, i))).toEqual(
      expected.map((v) => v ?? ""),
    );
    // The last run may end past the array (a sliced array).
    expect(readIpcStream(reeStream([3, 5, 9])).elements).toEqual(expected);
  });

  it("a run-end encoded field read from a stream writes back (see ipc-write-views.test.ts)", async () => {
    const { field: f } = readIpcStream(reeStream([3, 5, 7]));
    const pipeline = pipelineFor(arrowDataType(f), [7]);
    const bytes = await pipeline.encode(chunkOf(expected, [7]));
    expect((await pipeline.decode(bytes)).data).toEqual(expected);
  });

  it("hostile run ends are a DecodeError", () => {
    const cases: [string, Uint8Array, RegExp][] = [
      ["not increasing", reeStream([3, 3, 7]), /do not increase/],
      ["zero first", reeStream([0, 5, 7]), /do not increase/],
      ["negative", reeStream([-1, 5, 7]), /do not increase/],
      ["ending early", reeStream([3, 5, 6]), /end at 6, before its 7 elements/],
      ["fewer ends than values", reeStream([3, 7]), /2 run ends but 3 values/],
      [
        "2^40 elements from one run",
        reeStream([3, 5, 2 ** 40], 64, 2 ** 40),
        /more array elements/,
      ],
    ];
    for (const [label, bytes, message] of cases) {
      expect(() => readIpcStream(bytes), label).toThrow(DecodeError);
      expect(() => readIpcStream(bytes), label).toThrow(message);
    }
  });
});

describe("list views (read)", () => {
  const stream = (large: boolean, offsets: number[], sizes: number[], n = 4) => {
    const ints = (v: number[]) =>
      large ? new Uint8Array(BigInt64Array.from(v.map(BigInt)).buffer) : int32s(...v);
    return concat(
      schemaMessage([
        {
          name: "v",
          nullable: true,
          type: large ? "largelistview" : "listview",
          children: [{ name: "item", nullable: false, type: "int32" }],
        },
      ]),
      recordBatchMessage({
        length: n,
        nodes: [
          [n, 1],
          [4, 0],
        ],
        buffers: [
          new Uint8Array([0b1101]),
          ints(offsets),
          ints(sizes),
          new Uint8Array(0),
          int32s(1, 2, 3, 4),
        ],
      }),
      END_OF_STREAM,
    );
  };

  it.each([false, true])("reads overlapping lists in any order (large: %s)", async (large) => {
    // Element 2 overlaps element 0; element 3 is empty; element 1 is null.
    const bytes = stream(large, [0, 0, 1, 4], [2, 0, 3, 0]);
    const column = readIpcStream(bytes);
    expect(column.field.type.name).toBe(large ? "largelistview" : "listview");
    expect(column.elements).toEqual([[1, 2], null, [2, 3, 4], []]);
    const dataType = arrowDataType(column.field);
    expect((await pipelineFor(dataType, [4]).decode(bytes)).data).toEqual(column.elements);
    // Written back, the lists are laid out one after another (see ipc-write-views.test.ts).
    const written = await pipelineFor(dataType, [4]).encode(chunkOf(column.elements, [4]));
    expect(readIpcStream(written).elements).toEqual(column.elements);
  });

  it("ranges outside the child, and many lists over the same items, are a DecodeError", () => {
    expect(() => readIpcStream(stream(false, [0, 0, 2, 0], [2, 0, 3, 0]))).toThrow(
      /3 items at offset 2 at element 2, outside its 4-item child/,
    );
    expect(() => readIpcStream(stream(false, [0, 0, -1, 0], [2, 0, 1, 0]))).toThrow(DecodeError);
    expect(() => readIpcStream(stream(true, [0, 0, 0, 0], [2, 0, -2, 0]))).toThrow(DecodeError);
    const n = 40_000;
    const validity = new Uint8Array(Math.ceil(n / 8)).fill(255);
    const many = concat(
      schemaMessage([
        {
          name: "v",
          nullable: true,
          type: "listview",
          children: [{ name: "item", nullable: false, type: "int32" }],
        },
      ]),
      recordBatchMessage({
        length: n,
        nodes: [
          [n, 0],
          [2000, 0],
        ],
        buffers: [
          validity,
          new Uint8Array(4 * n),
          int32s(...new Array(n).fill(2000)),
          new Uint8Array(0),
          new Uint8Array(8000),
        ],
      }),
      END_OF_STREAM,
    );
    // 40,000 lists of the same 2,000 items: 80 million items from a 328 KB stream.
    expect(() => readIpcStream(many)).toThrow(/more items than the stream's size allows/);
  });
});

describe("dictionary deltas", () => {
  const dictField: FieldSpec = { name: "v", nullable: true, type: "utf8", dictionaryId: 3 };
  const dictionary = (values: string[], isDelta: boolean) =>
    dictionaryBatchMessage(
      3,
      {
        length: values.length,
        nodes: [[values.length, 0]],
        buffers: [new Uint8Array(0), ...utf8Buffers(values)],
      },
      isDelta,
    );
  const batch = (indices: number[]) =>
    recordBatchMessage({
      length: indices.length,
      nodes: [[indices.length, 0]],
      buffers: [new Uint8Array(0), int32s(...indices)],
    });

  it("a delta extends the dictionary; a non-delta batch replaces it (as apache-arrow reads them)", () => {
    const bytes = concat(
      schemaMessage([dictField]),
      dictionary(["a", "b"], false),
      batch([0, 1]),
      dictionary(["c"], true),
      batch([2, 0]),
      dictionary(["x", "y", "z"], false),
      batch([2, 1]),
      END_OF_STREAM,
    );
    const ours = readIpcStream(bytes, { expectedLength: 6 }).elements;
    expect(ours).toEqual(["a", "b", "c", "a", "z", "y"]);
    const theirs = A.tableFromIPC(bytes).getChildAt(0)!;
    expect(Array.from({ length: 6 }, (_, i) => theirs.get(i))).toEqual(ours);
  });

  it("an index into the part a delta has not sent yet is a DecodeError", () => {
    const bytes = concat(
      schemaMessage([dictField]),
      dictionary(["a"], false),
      batch([1]),
      dictionary(["b"], true),
      END_OF_STREAM,
    );
    expect(() => readIpcStream(bytes)).toThrow(/index 1 at 0; the dictionary holds 1 values/);
  });
});

describe("compressed bodies (LZ4_FRAME, ZSTD)", () => {
  const picked = [
    "int32",
    "utf8",
    "utf8view",
    "list<int32>",
    "struct",
    "dictionary<int8, utf8>",
    "binaryview",
  ];

  for (const codec of ["lz4_frame", "zstd"] as const) {
    it(`z.arrow-ipc with body_compression ${codec} round-trips, and apache-arrow reads it through the ${codec === "zstd" ? "zstd" : "lz4"} tool`, async () => {
      for (const label of picked) {
        const c = CASES.find((x) => x.label === label)!;
        const dataType = arrowDataType(c.field);
        // Repetitive values, so compression pays and buffers really are compressed.
        const values = elements(c, 200).map((_, i) => c.make(i % 7));
        const pipeline = pipelineFor(dataType, [200], "z.arrow-ipc", { body_compression: codec });
        const bytes = await pipeline.encode(chunkOf(values, [200]));
        const plain = await pipelineFor(dataType, [200]).encode(chunkOf(values, [200]));
        expect(bytes.length, label).toBeLessThan(plain.length);
        expect((await pipeline.decode(bytes)).data, label).toEqual(values);
        // The sync reader says where to go; the async one reads it.
        expect(() => readIpcStream(bytes)).toThrow(/compressed.*readIpcStreamAsync/);
        expect((await readIpcStreamAsync(bytes)).elements).toEqual(values);
        const theirs = withToolCodecs(() => A.tableFromIPC(bytes));
        const expected = A.tableFromIPC(plain).getChildAt(0)!;
        const got = theirs.getChildAt(0)!;
        for (let i = 0; i < 200; i++)
          expect(JSON.stringify(got.get(i), bigints), `${label} ${i}`).toBe(
            JSON.stringify(expected.get(i), bigints),
          );
      }
    });
  }

  it("concurrent compressed writes do not mix, and leave apache-arrow's registry as it was", async () => {
    const user = { decode: (d: Uint8Array) => d };
    const registry = A.compressionRegistry as unknown as { registry: Record<number, unknown> };
    registry.registry[A.CompressionType.ZSTD] = user;
    try {
      const dataType = arrowDataType(field("v", { name: "utf8" }));
      const chunks = Array.from({ length: 6 }, (_, k) =>
        Array.from({ length: 300 }, (_, i) => `chunk ${k} value ${i % (k + 2)}`),
      );
      const written = await Promise.all(
        chunks.map((values, k) =>
          pipelineFor(dataType, [300], "z.arrow-ipc", {
            body_compression: k % 2 ? "zstd" : "lz4_frame",
          }).encode(chunkOf(values, [300])),
        ),
      );
      for (let k = 0; k < chunks.length; k++)
        expect((await readIpcStreamAsync(written[k])).elements).toEqual(chunks[k]);
      expect(A.compressionRegistry.get(A.CompressionType.ZSTD)).toBe(user);
      expect(A.compressionRegistry.get(A.CompressionType.LZ4_FRAME)).toBeNull();
    } finally {
      registry.registry[A.CompressionType.ZSTD] = undefined;
    }
  });

  it("the configuration is written and checked", () => {
    const dataType = arrowDataType(field("v", { name: "utf8" }));
    const pipeline = pipelineFor(dataType, [2], "z.arrow-ipc", { body_compression: "zstd" });
    expect(pipeline.toJson()[0]).toEqual({
      name: "z.arrow-ipc",
      configuration: { body_compression: "zstd" },
      mustUnderstand: true,
    });
    expect(pipelineFor(dataType, [2]).toJson()[0].configuration).toEqual({});
    expect(() => pipelineFor(dataType, [2], "z.arrow-ipc", { body_compression: "lz4" })).toThrow(
      CodecConfigError,
    );
    // The zarr-extensions codec has only column_name.
    expect(() => pipelineFor(dataType, [2], "arrow-ipc", { body_compression: "zstd" })).toThrow(
      /unknown configuration member "body_compression"/,
    );
  });

  for (const tool of ["lz4", "zstd"] as const) {
    it(`reads streams apache-arrow compressed with the ${tool} tool, under both codec names`, async () => {
      const values = Array.from({ length: 500 }, (_, i) =>
        i % 11 === 3 ? null : `value ${i % 13}`,
      );
      const table = new A.Table({ v: A.vectorFromArray(values, new A.Utf8()) });
      const bytes = toolCompressedStream(table, tool);
      expect((await readIpcStreamAsync(bytes)).elements).toEqual(values);
      const dataType = arrowDataType(field("v", { name: "utf8" }));
      expect((await pipelineFor(dataType, [500]).decode(bytes)).data).toEqual(values);
      const int32 = resolveDataTypeV3("int32");
      const numbers = new A.Table({
        n: A.vectorFromArray(
          values.map((_, i) => i % 9),
          new A.Int32(),
        ),
      });
      const chunk = await pipelineFor(int32, [500], "arrow-ipc", { column_name: "n" }).decode(
        toolCompressedStream(numbers, tool),
      );
      expect(Array.from(chunk.data as Int32Array)).toEqual(values.map((_, i) => i % 9));
    });
  }

  describe("hostile compressed buffers", () => {
    const values = Array.from({ length: 64 }, (_, i) => i % 5);
    const dataType = arrowDataType(
      field("v", { name: "int", bitWidth: 32, isSigned: true }, false),
    );

    /** The compressed values buffer (the second buffer) of a record batch from apache-arrow. */
    function valuesPrefixAt(bytes: Uint8Array): number {
      // The values buffer holds 256 bytes: its length prefix is that int64 in the body.
      const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      // (The first one: an LZ4 frame's header repeats the content size further on.)
      for (let i = 0; i + 8 <= bytes.length; i++) if (view.getBigInt64(i, true) === 256n) return i;
      throw new Error("no length prefix of 256");
    }

    for (const codec of ["lz4_frame", "zstd"] as const) {
      it(`${codec}: a stated length that lies, a huge one, corrupt data`, async () => {
        const pipeline = pipelineFor(dataType, [64], "z.arrow-ipc", { body_compression: codec });
        const bytes = await pipeline.encode(chunkOf(values, [64]));
        expect((await readIpcStreamAsync(bytes)).elements).toEqual(values);
        const at = valuesPrefixAt(bytes);
        const patched = (value: bigint) => {
          const copy = bytes.slice();
          new DataView(copy.buffer).setBigInt64(at, value, true);
          return copy;
        };
        for (const [label, value, message] of [
          ["too small", 100n, /decode|decodes|more than|room/],
          ["too large", 300n, /decode|decodes|more than|room/],
          ["2^40", 2n ** 40n, /claims to decode to 1099511627776 bytes/],
          ["negative", -7n, /claims to decode to -7 bytes/],
        ] as const) {
          await expect(readIpcStreamAsync(patched(value)), label).rejects.toThrow(DecodeError);
          await expect(readIpcStreamAsync(patched(value)), label).rejects.toThrow(message);
        }
        await expect(readIpcStreamAsync(bytes, { maxDecompressedBytes: 100 })).rejects.toThrow(
          /more than the \d+ left of this stream's limit/,
        );
        let failures = 0;
        for (let k = 0; k < 40; k++) {
          const copy = bytes.slice();
          copy[at + 8 + ((k * 7) % 12)] ^= 1 << (k % 8);
          try {
            const { elements: got } = await readIpcStreamAsync(copy);
            expect(got).toHaveLength(64);
          } catch (error) {
            expect(error, `flip ${k}`).toBeInstanceOf(DecodeError);
            failures++;
          }
        }
        expect(failures).toBeGreaterThan(0);
      });
    }

    it("an unknown codec or method is a DecodeError", async () => {
      const bytes = concat(
        schemaMessage([{ name: "v", nullable: false, type: "int32" }]),
        recordBatchMessage({
          length: 1,
          nodes: [[1, 0]],
          buffers: [new Uint8Array(0), int32s(-1, -1, 7)],
          compression: 5,
        }),
        END_OF_STREAM,
      );
      await expect(readIpcStreamAsync(bytes)).rejects.toThrow(/compression codec 5 is not known/);
      // An uncompressed buffer marked -1 reads as is.
      const raw = concat(
        schemaMessage([{ name: "v", nullable: false, type: "int32" }]),
        recordBatchMessage({
          length: 1,
          nodes: [[1, 0]],
          buffers: [new Uint8Array(0), int32s(-1, -1, 7)],
          compression: 1,
        }),
        END_OF_STREAM,
      );
      expect((await readIpcStreamAsync(raw)).elements).toEqual([7]);
      const short = concat(
        schemaMessage([{ name: "v", nullable: false, type: "int32" }]),
        recordBatchMessage({
          length: 1,
          nodes: [[1, 0]],
          buffers: [new Uint8Array(0), int32s(7)],
          compression: 1,
        }),
        END_OF_STREAM,
      );
      await expect(readIpcStreamAsync(short)).rejects.toThrow(/too few for its length prefix/);
    });
  });
});

function bigints(_key: string, value: unknown): unknown {
  return typeof value === "bigint" ? value.toString() : value;
}
