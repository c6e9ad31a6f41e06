import {
  bytesDataType,
  type Chunk,
  createArray,
  fromArrowVector,
  ObjectDataType,
  openArray,
  readArrowChunk,
  slice,
  stringDataType,
  toArrowVector,
} from "@z/zarr";
import { describe, expect, it } from "vitest";

/** Strings that exercise every path: empty, NUL, BOM, non-ASCII, emoji, long. */
const TEXTS = [
  "",
  "a",
  "héllo",
  "日本語",
  "🚀🎉",
  "a\0b",
  "\0",
  "\uFEFFbom",
  "x".repeat(300),
  "ÿ",
  "naïve",
  "z",
];
const json = (map: Map<string, Uint8Array>, key: string) =>
  JSON.parse(new TextDecoder().decode(map.get(key)));

/** A strided chunk's elements in C order. */
function cOrder(chunk: Chunk): unknown[] {
  const out: unknown[] = [];
  const walk = (axis: number, offset: number): void => {
    if (axis === chunk.shape.length) {
      out.push((chunk.data as unknown[])[offset]);
      return;
    }
    for (let i = 0; i < chunk.shape[axis]; i++) walk(axis + 1, offset + i * chunk.stride[axis]);
  };
  walk(0, 0);
  return out;
}

describe("v3 string arrays", () => {
  it("write and read with vlen-utf8, as zarr-python writes their metadata", async () => {
    const map = new Map<string, Uint8Array>();
    const arr = await createArray(map, {
      shape: [12],
      chunks: [5],
      dtype: "string",
      serializer: "vlen-utf8",
      fillValue: "",
    });
    await arr.set(null, TEXTS);
    const doc = json(map, "zarr.json");
    expect(doc.data_type).toBe("string");
    expect(doc.fill_value).toBe("");
    expect(doc.codecs.map((c: { name: string }) => c.name)).toEqual(["vlen-utf8", "zstd"]);
    const back = await openArray(map);
    expect(back.dataType).toBe(stringDataType);
    expect((await back.get()).data).toEqual(TEXTS);
    expect((await back.get([slice(null, null, -3)])).data).toEqual([
      TEXTS[11],
      TEXTS[8],
      TEXTS[5],
      TEXTS[2],
    ]);
    expect((await back.get([-4])).data).toEqual([TEXTS[8]]);
  });

  it("missing chunks read as the fill value; chunks equal to it are not stored", async () => {
    const map = new Map<string, Uint8Array>();
    const arr = await createArray(map, {
      shape: [6],
      chunks: [2],
      dtype: "string",
      serializer: "vlen-utf8",
      fillValue: "n/a",
    });
    await arr.set([slice(2, 3)], ["x"]);
    expect((await arr.get()).data).toEqual(["n/a", "n/a", "x", "n/a", "n/a", "n/a"]);
    await arr.set([slice(2, 4)], "n/a" as never);
    expect([...map.keys()].filter((k) => k.startsWith("c/"))).toEqual([]);
  });

  it("take nested arrays and n-d values; partial writes keep the rest of the chunk", async () => {
    const map = new Map<string, Uint8Array>();
    const arr = await createArray(map, {
      shape: [3, 4],
      chunks: [2, 3],
      dtype: "string",
      serializer: "vlen-utf8",
      fillValue: "",
    });
    await arr.set(null, [TEXTS.slice(0, 4), TEXTS.slice(4, 8), TEXTS.slice(8, 12)]);
    await arr.set([1, slice(1, 3)], ["Ω", "ω"]);
    const expected = [...TEXTS];
    expected[5] = "Ω";
    expected[6] = "ω";
    expect((await arr.get()).data).toEqual(expected);
    await arr.set([slice(0, 2), slice(0, 2)], {
      data: ["p", "q", "r", "s"],
      shape: [2, 2],
      stride: [1, 2],
    });
    expect((await arr.get([slice(0, 2), slice(0, 2)])).data).toEqual(["p", "r", "q", "s"]);
  });

  it("refuse values that are not strings", async () => {
    const arr = await createArray(new Map(), {
      shape: [2],
      chunks: [2],
      dtype: "string",
      serializer: "vlen-utf8",
      fillValue: "",
    });
    await expect(arr.set(null, ["a", 1])).rejects.toThrow(TypeError);
  });

  it("default to vlen-utf8 / vlen-bytes, and say which codec to use when given the fixed-size bytes codec", async () => {
    const arr = await createArray(new Map(), {
      shape: [2],
      chunks: [2],
      dtype: "string",
      fillValue: "",
    });
    expect(arr.metadata.codecs[0].name).toBe("vlen-utf8");
    await arr.set(null, ["a", "b"]);
    expect((await arr.get()).data).toEqual(["a", "b"]);
    const bytes = await createArray(new Map(), {
      shape: [1],
      chunks: [1],
      dtype: "bytes",
      compressors: null,
    });
    expect(bytes.metadata.codecs.map((c) => c.name)).toEqual(["vlen-bytes"]);
    const wrong = await createArray(new Map(), {
      shape: [2],
      chunks: [2],
      dtype: "string",
      fillValue: "",
      serializer: "bytes",
    });
    await expect(wrong.set(null, ["a", "b"])).rejects.toThrow(/serializer: "vlen-utf8"/);
  });
});

describe("every selection mode and sharding work on strings", () => {
  const rows = 5;
  const cols = 6;
  const grid = Array.from({ length: rows * cols }, (_, i) => `${TEXTS[i % TEXTS.length]}#${i}`);
  const at = (r: number, c: number) => grid[r * cols + c];

  async function filled(sharded: boolean) {
    const arr = await createArray(new Map(), {
      shape: [rows, cols],
      chunks: [2, 2],
      ...(sharded ? { shards: [4, 4] } : {}),
      dtype: "string",
      serializer: "vlen-utf8",
      fillValue: "",
    });
    await arr.set(null, { data: grid, shape: [rows, cols] });
    return arr;
  }

  for (const sharded of [false, true]) {
    const label = sharded ? "sharded" : "unsharded";
    it(`${label}: basic, orthogonal, coordinate, mask and block reads`, async () => {
      const arr = await filled(sharded);
      expect(sharded ? arr.metadata.codecs.map((c) => c.name) : []).toEqual(
        sharded ? ["sharding_indexed"] : [],
      );
      expect((await arr.get()).data).toEqual(grid);
      expect((await arr.get([slice(4, 0, -2), 3])).data).toEqual([at(4, 3), at(2, 3)]);
      expect(
        cOrder(
          await arr.getOrthogonal([
            [0, 4],
            [5, 1, 1],
          ]),
        ),
      ).toEqual([at(0, 5), at(0, 1), at(0, 1), at(4, 5), at(4, 1), at(4, 1)]);
      expect(
        (
          await arr.getCoordinates([
            [0, 3, 4],
            [5, 0, 2],
          ])
        ).data,
      ).toEqual([at(0, 5), at(3, 0), at(4, 2)]);
      const mask = Array.from({ length: rows }, (_, r) =>
        Array.from({ length: cols }, (_, c) => (r + c) % 4 === 0),
      );
      const masked = grid.filter((_, i) => (Math.floor(i / cols) + (i % cols)) % 4 === 0);
      expect((await arr.getMask(mask)).data).toEqual(masked);
      // Blocks are the chunk grid's cells: shards when the array is sharded.
      const [bh, bw] = arr.metadata.chunkGrid.chunkShape as readonly number[];
      const block: string[] = [];
      for (let r = bh; r < Math.min(2 * bh, rows); r++)
        for (let c = bw; c < Math.min(2 * bw, cols); c++) block.push(at(r, c));
      expect(cOrder(await arr.getBlocks([1, 1]))).toEqual(block);
    });

    it(`${label}: orthogonal, coordinate, mask and block writes`, async () => {
      const arr = await filled(sharded);
      const expected = [...grid];
      await arr.setOrthogonal(
        [
          [1, 3],
          [0, 5],
        ],
        ["α", "β", "γ", "δ"],
      );
      [
        expected[1 * cols + 0],
        expected[1 * cols + 5],
        expected[3 * cols + 0],
        expected[3 * cols + 5],
      ] = ["α", "β", "γ", "δ"];
      await arr.setCoordinates(
        [
          [4, 0],
          [4, 2],
        ],
        ["🙂", ""],
      );
      [expected[4 * cols + 4], expected[0 * cols + 2]] = ["🙂", ""];
      const mask = Array.from({ length: rows }, (_, r) =>
        Array.from({ length: cols }, (_, c) => r === 2 && c < 2),
      );
      await arr.setMask(mask, ["m0", "m1"]);
      [expected[2 * cols + 0], expected[2 * cols + 1]] = ["m0", "m1"];
      const [bh, bw] = arr.metadata.chunkGrid.chunkShape as readonly number[];
      const lastRow = Math.ceil(rows / bh) - 1;
      const cells: number[] = [];
      for (let r = lastRow * bh; r < rows; r++)
        for (let c = 0; c < bw; c++) cells.push(r * cols + c);
      await arr.setBlocks(
        [lastRow, 0],
        cells.map((i) => `b${i}`),
      );
      for (const i of cells) expected[i] = `b${i}`;
      expect((await arr.get()).data).toEqual(expected);
    });
  }
});

describe("v3 bytes arrays", () => {
  it("write and read Uint8Arrays with vlen-bytes; the fill value is base64", async () => {
    const map = new Map<string, Uint8Array>();
    const items = [new Uint8Array([0, 1, 2]), new Uint8Array(0), new TextEncoder().encode("é")];
    const arr = await createArray(map, {
      shape: [4],
      chunks: [2],
      dtype: "bytes",
      serializer: "vlen-bytes",
      fillValue: new Uint8Array([255]),
    });
    await arr.set([slice(0, 3)], items);
    expect(json(map, "zarr.json").fill_value).toBe("/w==");
    const back = await openArray(map);
    expect(back.dataType).toBe(bytesDataType);
    const data = (await back.get()).data as Uint8Array[];
    expect(data.map((b) => Array.from(b))).toEqual([[0, 1, 2], [], [0xc3, 0xa9], [255]]);
  });

  it("reads zarr-python's variable_length_bytes name", async () => {
    const map = new Map<string, Uint8Array>();
    await createArray(map, {
      shape: [1],
      chunks: [1],
      dtype: "bytes",
      serializer: "vlen-bytes",
      fillValue: new Uint8Array(0),
    });
    const doc = json(map, "zarr.json");
    doc.data_type = "variable_length_bytes";
    map.set("zarr.json", new TextEncoder().encode(JSON.stringify(doc)));
    expect((await openArray(map)).dataType).toBe(bytesDataType);
  });
});

describe("v2 object arrays", () => {
  it("a string array written as v2 is |O with a vlen-utf8 filter, and reads back", async () => {
    const map = new Map<string, Uint8Array>();
    const arr = await createArray(map, {
      zarrFormat: 2,
      shape: [12],
      chunks: [5],
      dtype: "string",
      serializer: "vlen-utf8",
      compressor: { id: "zlib", level: 1 },
      fillValue: "",
    });
    await arr.set(null, TEXTS);
    const zarray = json(map, ".zarray");
    expect(zarray.dtype).toBe("|O");
    expect(zarray.filters).toEqual([{ id: "vlen-utf8" }]);
    expect(zarray.compressor).toEqual({ id: "zlib", level: 1 });
    expect(zarray.fill_value).toBe("");
    const back = await openArray(map);
    expect(back.dataType).toBeInstanceOf(ObjectDataType);
    expect(back.dataType.toV3()).toBe("string");
    expect((await back.get()).data).toEqual(TEXTS);
  });

  it("F order v2 string arrays store columns first, as numcodecs does", async () => {
    const map = new Map<string, Uint8Array>();
    const arr = await createArray(map, {
      zarrFormat: 2,
      shape: [2, 3],
      chunks: [2, 3],
      dtype: "string",
      serializer: "vlen-utf8",
      compressor: null,
      order: "F",
      fillValue: "",
    });
    await arr.set(null, [
      ["a", "b", "c"],
      ["d", "e", "f"],
    ]);
    const stored = new TextDecoder().decode(map.get("0.0"));
    expect(stored.replace(/[^a-f]/g, "")).toBe("adbecf");
    expect((await (await openArray(map)).get()).data).toEqual(["a", "b", "c", "d", "e", "f"]);
  });

  it("bytes arrays are |O with vlen-bytes and a null fill value", async () => {
    const map = new Map<string, Uint8Array>();
    const arr = await createArray(map, {
      zarrFormat: 2,
      shape: [2],
      chunks: [2],
      dtype: "bytes",
      serializer: "vlen-bytes",
      compressor: null,
      fillValue: new Uint8Array(0),
    });
    await arr.set(null, [new Uint8Array([1]), new Uint8Array([2, 3])]);
    const zarray = json(map, ".zarray");
    expect([zarray.dtype, zarray.filters, zarray.fill_value]).toEqual([
      "|O",
      [{ id: "vlen-bytes" }],
      null,
    ]);
    const back = await openArray(map);
    expect(((await back.get()).data as Uint8Array[]).map((b) => Array.from(b))).toEqual([
      [1],
      [2, 3],
    ]);
    expect(back.dataType.toV3()).toBe("bytes");
  });
});

describe("copies between formats (what zarr copy does)", () => {
  it("v3 string -> v2 -> v3 keeps every value", async () => {
    const v3 = new Map<string, Uint8Array>();
    const source = await createArray(v3, {
      shape: [12],
      chunks: [4],
      dtype: "string",
      serializer: "vlen-utf8",
      fillValue: "",
    });
    await source.set(null, TEXTS);
    const v2 = new Map<string, Uint8Array>();
    const copy = await createArray(v2, {
      shape: source.shape,
      chunks: source.chunks,
      dtype: source.dataType,
      codecs: source.metadata.codecs.map((c) => ({ name: c.name, configuration: c.configuration })),
      fillValue: source.fillValue,
      zarrFormat: 2,
    });
    await copy.set(null, await source.get());
    expect(json(v2, ".zarray").filters).toEqual([{ id: "vlen-utf8" }]);
    const reopened = await openArray(v2);
    const back = new Map<string, Uint8Array>();
    const again = await createArray(back, {
      shape: reopened.shape,
      chunks: reopened.chunks,
      dtype: reopened.dataType,
      codecs: reopened.metadata.codecs.map((c) => ({
        name: c.name,
        configuration: c.configuration,
      })),
      fillValue: reopened.fillValue,
      zarrFormat: 3,
    });
    await again.set(null, await reopened.get());
    expect(json(back, "zarr.json").data_type).toBe("string");
    expect(json(back, "zarr.json").fill_value).toBe("");
    expect((await (await openArray(back)).get()).data).toEqual(TEXTS);
  });
});

describe("Arrow vectors", () => {
  it("the offsets layout reads into a zero-copy Arrow vector; set takes Arrow vectors", async () => {
    const map = new Map<string, Uint8Array>();
    const arr = await createArray(map, {
      shape: [12],
      chunks: [6],
      dtype: "string",
      serializer: { name: "z.vlen-offsets", configuration: { offsets: "int32" } },
      compressors: null,
      fillValue: "",
    });
    await arr.set(null, fromArrowVector(await toArrowVector(TEXTS)));
    expect((await arr.get()).data).toEqual(TEXTS);
    const vector = await readArrowChunk(arr, [1]);
    // fromArrowVector, not [...vector]: apache-arrow drops a value's leading BOM when reading.
    expect(fromArrowVector(vector)).toEqual(TEXTS.slice(6));
    expect(vector.data[0].values.buffer).toBe(map.get("c/1")!.buffer);
    const whole = await toArrowVector(await arr.get([slice(2, 5)]));
    expect([...whole]).toEqual(TEXTS.slice(2, 5));
    expect(fromArrowVector(whole)).toEqual(TEXTS.slice(2, 5));
  });

  it("vlen-utf8 chunks read into Arrow with one copy; bytes arrays give Binary vectors", async () => {
    const arr = await createArray(new Map(), {
      shape: [12],
      chunks: [12],
      dtype: "string",
      serializer: "vlen-utf8",
      fillValue: "",
    });
    await arr.set(null, TEXTS);
    expect(fromArrowVector(await readArrowChunk(arr, [0]))).toEqual(TEXTS);
    const bytes = await createArray(new Map(), {
      shape: [2],
      chunks: [2],
      dtype: "bytes",
      serializer: "vlen-bytes",
      fillValue: new Uint8Array(0),
    });
    await bytes.set(
      null,
      fromArrowVector(await toArrowVector([new Uint8Array([5]), new Uint8Array([6, 7])])),
    );
    const vector = await readArrowChunk(bytes, [0]);
    expect([...vector].map((b) => Array.from(b as Uint8Array))).toEqual([[5], [6, 7]]);
  });
});
