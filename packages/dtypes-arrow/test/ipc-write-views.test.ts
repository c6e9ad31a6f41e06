// Writing run-end encoded and list view fields (types apache-arrow 21 lacks, so our own IPC
// writer writes their streams): round trips through the codecs, and every stream taken apart
// field by field with Arrow's generated FlatBuffers code (ipc-inspect.ts) and decoded by hand
// from the columnar format spec, as a check independent of our reader.
import { type ChunkSpec, CodecPipeline, loadCodecs } from "@z/codecs";
import {
  ArrowEncodeError,
  type ArrowField,
  type ArrowType,
  arrowDataType,
  arrowVectorFromElements,
  readIpcStream,
} from "@z/dtypes-arrow";
import type { DataType } from "@z/metadata";
import type { Chunk } from "@z/ndarray";
import { cOrderStrides } from "@z/ndarray";
import * as A from "apache-arrow";
import { Type } from "apache-arrow/fb/Schema_generated";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { encodeIpcStream } from "../src/ipc/encode-stream.js";
import { CASES, elements, field } from "./cases.js";
import { concat, END_OF_STREAM, int32s, recordBatchMessage, schemaMessage } from "./ipc-builder.js";
import { type InspectedStream, inspectStream, intsOf, isValid, utf8Of } from "./ipc-inspect.js";

// The Arrow codec loads on first use (under each of its names); the tests build it synchronously.
beforeAll(() => loadCodecs(["z.arrow-ipc", "arrow-ipc", "arrow_ipc"]));

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

/** Encodes and decodes one chunk of `items` through a codec; returns the bytes and what reads back. */
async function roundTrip(f: ArrowField, items: unknown[], codec = "z.arrow-ipc", config = {}) {
  const pipeline = pipelineFor(arrowDataType(f), [items.length], codec, config);
  const bytes = await pipeline.encode(chunkOf(items, [items.length]));
  return { bytes, back: (await pipeline.decode(bytes)).data as unknown[] };
}

const int = (bitWidth: 8 | 16 | 32 | 64): ArrowType => ({ name: "int", bitWidth, isSigned: true });

function reeField(runEnds: 16 | 32 | 64, values: ArrowField, name = "v"): ArrowField {
  return field(name, { name: "runendencoded" }, true, [
    field("run_ends", int(runEnds), false),
    { ...values, name: "values" },
  ]);
}

/** The reference model: equal consecutive elements merged, as [run end, value] pairs. */
function runsOf(items: unknown[]): [number, unknown][] {
  const runs: [number, unknown][] = [];
  items.forEach((v, i) => {
    const last = runs[runs.length - 1];
    if (last && last[1] === v) last[0] = i + 1;
    else runs.push([i + 1, v]);
  });
  return runs;
}

/**
 * Decodes a run-end encoded column of utf8 or int32 values by hand from the inspected stream,
 * checking the layout the format prescribes: the REE array has no buffers and a null count of
 * 0; its children are the non-null run ends (validity, values) and the values.
 */
function decodeRee(stream: InspectedStream, width: number, values: "utf8" | "int32") {
  const [f] = stream.fields;
  expect(f.type).toBe(Type.RunEndEncoded);
  expect(f.children.map((c) => [c.name, c.type, c.nullable])).toEqual([
    ["run_ends", Type.Int, false],
    ["values", values === "utf8" ? Type.Utf8 : Type.Int, true],
  ]);
  expect(f.children[0].int).toEqual({ bitWidth: width, isSigned: true });
  expect(stream.batches).toHaveLength(1);
  const [batch] = stream.batches;
  const [ree, ends, vals] = batch.nodes;
  expect(batch.nodes).toHaveLength(3);
  expect(ree).toEqual({ length: batch.length, nullCount: 0 });
  expect(ends.nullCount).toBe(0);
  expect(vals.length).toBe(ends.length);
  // Buffers: none for the REE array, [validity, ends] for run ends, then the values'.
  expect(batch.buffers).toHaveLength(values === "utf8" ? 5 : 4);
  expect(batch.buffers[0]).toHaveLength(0);
  const runEnds = intsOf(batch.buffers[1], width, ends.length);
  const valueBuffers = batch.buffers.slice(2);
  const runValues =
    values === "utf8"
      ? utf8Of(valueBuffers, vals.length)
      : intsOf(valueBuffers[1], 32, vals.length).map((v, i) =>
          isValid(valueBuffers[0], i) ? v : null,
        );
  expect(runValues.filter((v) => v === null)).toHaveLength(vals.nullCount);
  return runEnds.map((end, r) => [end, runValues[r]] as [number, unknown]);
}

describe("writing run-end encoded fields", () => {
  const utf8Values = field("values", { name: "utf8" });
  const samples: [string, unknown[]][] = [
    ["runs with nulls", ["a", "a", "a", null, null, "ccc", "ccc", "a", "", ""]],
    ["all equal", ["same", "same", "same", "same"]],
    ["all null", [null, null, null]],
    ["all distinct", ["a", "b", null, "c", "d", "é"]],
    ["one element", ["x"]],
    ["empty", []],
  ];

  for (const width of [16, 32, 64] as const) {
    for (const [label, items] of samples) {
      it(`int${width} run ends, ${label}: round trip, runs as the format lays them out`, async () => {
        const f = reeField(width, utf8Values);
        const { bytes, back } = await roundTrip(f, items);
        expect(back).toEqual(items);
        const runs = decodeRee(inspectStream(bytes), width, "utf8");
        expect(runs).toEqual(runsOf(items));
        // The arrow-ipc codec (column by name) writes the same layout.
        const named = await roundTrip(f, items, "arrow-ipc", { column_name: "col" });
        expect(named.back).toEqual(items);
        expect(inspectStream(named.bytes).fields[0].name).toBe("col");
        expect(decodeRee(inspectStream(named.bytes), width, "utf8")).toEqual(runsOf(items));
      });
    }
  }

  it("random int32 values with nulls: runs match the reference model (property)", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(16 as const, 32 as const, 64 as const),
        fc.array(fc.option(fc.integer({ min: -2, max: 2 }), { nil: null }), { maxLength: 60 }),
        async (width, items) => {
          const f = reeField(width, field("values", int(32)));
          const { bytes, back } = await roundTrip(f, items);
          expect(back).toEqual(items);
          expect(decodeRee(inspectStream(bytes), width, "int32")).toEqual(runsOf(items));
        },
      ),
      { numRuns: 60 },
    );
  });

  it("the run-end type bounds the chunk's length: an ArrowEncodeError beyond it", async () => {
    const f = reeField(16, field("values", int(32)));
    const fits = new Array(32767).fill(7);
    const { bytes, back } = await roundTrip(f, fits);
    expect(back).toEqual(fits);
    expect(decodeRee(inspectStream(bytes), 16, "int32")).toEqual([[32767, 7]]);
    const error = await roundTrip(f, new Array(32768).fill(7)).catch((e) => e);
    expect(error).toBeInstanceOf(ArrowEncodeError);
    expect(error.message).toMatch(
      /"v" has int16 run ends, which hold at most 32767; this chunk has 32768/,
    );
  });

  for (const compression of ["lz4_frame", "zstd"] as const) {
    it(`body_compression ${compression}: round trip, and the lz4/zstd tools decode every buffer`, async () => {
      const items = Array.from({ length: 500 }, (_, i) => (i % 7 === 3 ? null : `run ${i >> 5}`));
      const f = reeField(32, utf8Values);
      const { bytes, back } = await roundTrip(f, items, "z.arrow-ipc", {
        body_compression: compression,
      });
      expect(back).toEqual(items);
      const stream = inspectStream(bytes);
      expect(stream.batches[0].compression).toBe(compression === "lz4_frame" ? 0 : 1);
      expect(decodeRee(stream, 32, "utf8")).toEqual(runsOf(items));
    });
  }

  it("values of every type family round-trip (nested, dictionary-encoded and view values too)", async () => {
    for (const c of CASES) {
      const items = elements(c, 12);
      // Repeat each element so there are runs to merge.
      const repeated = items.flatMap((v) => [v, v]);
      const { back } = await roundTrip(reeField(32, c.field), repeated);
      expect(back, c.label).toEqual(repeated);
    }
  });
});

/** Decodes a list view (or large list view) of int32 items by hand from the inspected stream. */
function decodeListView(stream: InspectedStream, large: boolean) {
  const [f] = stream.fields;
  expect(f.type).toBe(large ? Type.LargeListView : Type.ListView);
  expect(f.children.map((c) => [c.name, c.type])).toEqual([["item", Type.Int]]);
  const [batch] = stream.batches;
  expect(batch.nodes).toHaveLength(2);
  const [lists, items] = batch.nodes;
  // Buffers: validity, offsets, sizes of the list view; validity, values of the items.
  expect(batch.buffers).toHaveLength(5);
  const [validity, offsetBytes, sizeBytes, itemValidity, itemValues] = batch.buffers;
  const width = large ? 64 : 32;
  const offsets = intsOf(offsetBytes, width, lists.length);
  const sizes = intsOf(sizeBytes, width, lists.length);
  const values = intsOf(itemValues, 32, items.length).map((v, i) =>
    isValid(itemValidity, i) ? v : null,
  );
  let nulls = 0;
  let next = 0;
  const out = offsets.map((offset, i) => {
    // The writer lays lists out one after another (no overlap), as a list would.
    expect(offset, `offset ${i}`).toBe(next);
    next += sizes[i];
    if (!isValid(validity, i)) {
      nulls++;
      expect(sizes[i], `size of null list ${i}`).toBe(0);
      return null;
    }
    return values.slice(offset, offset + sizes[i]);
  });
  expect(next).toBe(items.length);
  expect(nulls).toBe(lists.nullCount);
  return out;
}

describe("writing list views", () => {
  const listView = (large: boolean): ArrowField =>
    field("v", { name: large ? "largelistview" : "listview" }, true, [
      field("item", int(32), true),
    ]);

  for (const large of [false, true]) {
    const name = large ? "largelistview" : "listview";
    it(`${name}: empty lists, null lists, null items round-trip, laid out as the format says`, async () => {
      const items = [[1, 2], null, [], [null, 3, 4], [], null, [5]];
      const { bytes, back } = await roundTrip(listView(large), items);
      expect(back).toEqual(items);
      expect(decodeListView(inspectStream(bytes), large)).toEqual(items);
      const empty = await roundTrip(listView(large), []);
      expect(empty.back).toEqual([]);
      expect(decodeListView(inspectStream(empty.bytes), large)).toEqual([]);
    });

    it(`${name}: random lists (property)`, async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(
            fc.option(fc.array(fc.option(fc.integer(), { nil: null }), { maxLength: 5 }), {
              nil: null,
            }),
            { maxLength: 30 },
          ),
          async (items) => {
            const { bytes, back } = await roundTrip(listView(large), items);
            expect(back).toEqual(items);
            expect(decodeListView(inspectStream(bytes), large)).toEqual(items);
          },
        ),
        { numRuns: 40 },
      );
    });

    for (const compression of ["lz4_frame", "zstd"] as const) {
      it(`${name}, body_compression ${compression}: the tools decode every buffer`, async () => {
        const items = Array.from({ length: 200 }, (_, i) =>
          i % 9 === 4 ? null : Array.from({ length: i % 4 }, (_, k) => k),
        );
        const { bytes, back } = await roundTrip(listView(large), items, "z.arrow-ipc", {
          body_compression: compression,
        });
        expect(back).toEqual(items);
        expect(decodeListView(inspectStream(bytes), large)).toEqual(items);
      });
    }
  }

  it("overlapping, out-of-order views read, and write back laid out one after another", async () => {
    // Element 2 overlaps element 0; element 3 is empty; element 1 is null.
    const overlapping = concat(
      schemaMessage([
        {
          name: "v",
          nullable: true,
          type: "listview",
          children: [{ name: "item", nullable: true, type: "int32" }],
        },
      ]),
      recordBatchMessage({
        length: 4,
        nodes: [
          [4, 1],
          [4, 0],
        ],
        buffers: [
          new Uint8Array([0b1101]),
          int32s(2, 0, 1, 4),
          int32s(2, 0, 3, 0),
          new Uint8Array(0),
          int32s(1, 2, 3, 4),
        ],
      }),
      END_OF_STREAM,
    );
    const expected = [[3, 4], null, [2, 3, 4], []];
    expect(readIpcStream(overlapping).elements).toEqual(expected);
    const pipeline = pipelineFor(arrowDataType(listView(false)), [4]);
    const read = await pipeline.decode(overlapping);
    expect(read.data).toEqual(expected);
    const bytes = await pipeline.encode(read);
    expect(decodeListView(inspectStream(bytes), false)).toEqual(expected);
  });

  it("items of every type family round-trip", async () => {
    for (const c of CASES) {
      const items = elements(c, 12);
      const lists = [items.slice(0, 5), null, [], items.slice(5)];
      for (const large of [false, true]) {
        const f = field("v", { name: large ? "largelistview" : "listview" }, true, [
          { ...c.field, name: "item" },
        ]);
        const { back } = await roundTrip(f, lists);
        expect(back, `${c.label} (large: ${large})`).toEqual(lists);
      }
    }
  });

  it("a list view inside a struct, a run-end encoded field inside a list view", async () => {
    const inner = reeField(16, field("values", { name: "utf8" }), "item");
    const f = field("v", { name: "struct" }, true, [
      field("views", { name: "listview" }, true, [inner]),
      field("n", int(32), true),
    ]);
    const items = [
      { views: ["a", "a", "b"], n: 1 },
      null,
      { views: null, n: null },
      { views: [], n: 4 },
    ];
    const { back } = await roundTrip(f, items);
    expect(back).toEqual([items[0], null, items[2], items[3]]);
  });
});

describe("apache-arrow vectors of these fields", () => {
  it("are an ArrowEncodeError saying apache-arrow has no such vector type", async () => {
    const ree = reeField(32, field("values", int(32)));
    const lv = field("v", { name: "listview" }, true, [field("item", int(32))]);
    for (const [f, items] of [
      [ree, [1, 1]],
      [lv, [[1], null]],
    ] as const) {
      const error = await arrowVectorFromElements(arrowDataType(f), items).catch((e) => e);
      expect(error).toBeInstanceOf(ArrowEncodeError);
      expect(error.message).toMatch(
        /which apache-arrow has no vector type for; read and write its elements as plain values/,
      );
    }
  });
});

describe("the own IPC writer writes every other type as apache-arrow does", () => {
  // Streams of fields without run-end encoding or list views go through apache-arrow; the own
  // writer (used for the values and items above) must lay out every type the same way, which
  // apache-arrow's reader checks here.
  const plain = (v: unknown) => JSON.stringify(v, (_k, x) => (typeof x === "bigint" ? `${x}n` : x));
  for (const c of CASES) {
    it(c.label, async () => {
      const items = elements(c, 12);
      const ours = await encodeIpcStream(c.field, items);
      const theirs = (await pipelineFor(arrowDataType(c.field), [12]).encode(
        chunkOf(items, [12]),
      )) as Uint8Array;
      expect(readIpcStream(ours).field).toEqual(readIpcStream(theirs).field);
      expect(readIpcStream(ours).elements).toEqual(readIpcStream(theirs).elements);
      expect(plain(A.tableFromIPC(ours).toArray())).toBe(plain(A.tableFromIPC(theirs).toArray()));
    });
  }
});
