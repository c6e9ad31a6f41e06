import { CodecPipeline, loadCodecs } from "@z/codecs";
import {
  type ArrowChunkSource,
  bytesDataType,
  fromArrowVector,
  OFFSETS_LAYOUT_ALIGNMENT,
  readArrowChunk,
  stringDataType,
  toArrowVector,
  VlenOffsetsCodec,
} from "@z/dtypes-vlen";
import type { DataType, NamedConfig } from "@z/metadata";
import type { Chunk } from "@z/ndarray";
import { cOrderStrides, product } from "@z/ndarray";
import {
  Binary,
  Dictionary,
  Int32,
  LargeBinary,
  LargeUtf8,
  Utf8,
  vectorFromArray,
} from "apache-arrow";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { stringSpec } from "./helpers.js";

// These codecs load on first use; source() builds its pipeline synchronously.
beforeAll(() => loadCodecs(["vlen-utf8", "vlen-bytes", "z.vlen-offsets", "transpose", "gzip"]));

const entry = (name: string, configuration = {}): NamedConfig => ({
  name,
  configuration,
  mustUnderstand: true,
});
const bytesSpec = (n: number) => ({
  shape: [n],
  dataType: bytesDataType,
  fillValue: new Uint8Array(0),
});
const chunkOf = (data: unknown[]): Chunk => ({ data, shape: [data.length], stride: [1] });

describe("the z.vlen-offsets layout", () => {
  it("is n+1 little-endian offsets, zero padding to 64 bytes, then the data", () => {
    const codec = new VlenOffsetsCodec("int32", "utf8");
    const bytes = codec.encode(chunkOf(["a", "bc", ""]), stringSpec(3));
    expect(bytes.length).toBe(64 + 3);
    expect(Array.from(new Int32Array(bytes.buffer, 0, 4))).toEqual([0, 1, 3, 3]);
    expect(bytes.subarray(16, 64).every((b) => b === 0)).toBe(true);
    expect(new TextDecoder().decode(bytes.subarray(64))).toBe("abc");
    const wide = new VlenOffsetsCodec("int64", "utf8").encode(
      chunkOf(["a", "bc", ""]),
      stringSpec(3),
    );
    expect(Array.from(new BigInt64Array(wide.buffer, 0, 4))).toEqual([0n, 1n, 3n, 3n]);
    expect(new TextDecoder().decode(wide.subarray(64))).toBe("abc");
    // 16 int32 offsets fill exactly 64 bytes; 17 need the next boundary.
    expect(codec.encode(chunkOf(new Array(15).fill("")), stringSpec(15)).length).toBe(64);
    expect(codec.encode(chunkOf(new Array(16).fill("")), stringSpec(16)).length).toBe(128);
  });

  it("round-trips strings and bytes with either offset width (property)", () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ unit: "binary", maxLength: 50 }), { maxLength: 80 }),
        fc.boolean(),
        (texts, wide) => {
          const n = texts.length;
          const strings = new VlenOffsetsCodec(wide ? "int64" : "int32", "utf8");
          expect(
            strings.decode(strings.encode(chunkOf(texts), stringSpec(n)), stringSpec(n)).data,
          ).toEqual(texts);
          const raw = texts.map((t) => new TextEncoder().encode(t));
          const binary = new VlenOffsetsCodec(wide ? "int64" : "int32", "binary");
          const back = binary.decode(binary.encode(chunkOf(raw), bytesSpec(n)), bytesSpec(n))
            .data as Uint8Array[];
          expect(back.map((b) => Array.from(b))).toEqual(raw.map((b) => Array.from(b)));
        },
      ),
      { numRuns: 100 },
    );
  });

  it("decodes into Arrow Utf8 whose buffers are views of the chunk (zero-copy)", async () => {
    const texts = ["zarr", "", "ünïcode", "🚀"];
    const codec = new VlenOffsetsCodec("int32", "utf8");
    const bytes = codec.encode(chunkOf(texts), stringSpec(4));
    const vector = await codec.decodeToArrow(bytes, stringSpec(4));
    expect(vector.type).toBeInstanceOf(Utf8);
    expect(vector.toArray()).toEqual(texts);
    const data = vector.data[0];
    expect(data.values.buffer).toBe(bytes.buffer);
    expect(data.values.byteOffset).toBe(bytes.byteOffset + OFFSETS_LAYOUT_ALIGNMENT);
    expect(data.valueOffsets.buffer).toBe(bytes.buffer);
    expect(data.valueOffsets.byteOffset).toBe(bytes.byteOffset);
  });

  it("decodes into LargeUtf8, Binary and LargeBinary as configured", async () => {
    const large = new VlenOffsetsCodec("int64", "utf8");
    const v1 = await large.decodeToArrow(
      large.encode(chunkOf(["x", "yz"]), stringSpec(2)),
      stringSpec(2),
    );
    expect(v1.type).toBeInstanceOf(LargeUtf8);
    expect([...v1]).toEqual(["x", "yz"]);
    const items = [new Uint8Array([1, 2]), new Uint8Array([3])];
    for (const [width, type] of [
      ["int32", Binary],
      ["int64", LargeBinary],
    ] as const) {
      const codec = new VlenOffsetsCodec(width, "binary");
      const bytes = codec.encode(chunkOf(items), bytesSpec(2));
      const vector = await codec.decodeToArrow(bytes, bytesSpec(2));
      expect(vector.type).toBeInstanceOf(type);
      expect([...vector].map((b) => Array.from(b as Uint8Array))).toEqual([[1, 2], [3]]);
      expect(vector.data[0].values.buffer).toBe(bytes.buffer);
    }
  });

  it("copies only the offsets when the chunk is not aligned for them", async () => {
    const codec = new VlenOffsetsCodec("int32", "utf8");
    const encoded = codec.encode(chunkOf(["ab", "c"]), stringSpec(2));
    const shifted = new Uint8Array(encoded.length + 1);
    shifted.set(encoded, 1);
    const view = shifted.subarray(1);
    const vector = await codec.decodeToArrow(view, stringSpec(2));
    expect([...vector]).toEqual(["ab", "c"]);
    expect(vector.data[0].values.buffer).toBe(shifted.buffer);
    expect(vector.data[0].valueOffsets.buffer).not.toBe(shifted.buffer);
  });

  it("validates UTF-8 for Arrow unless told not to", async () => {
    const codec = new VlenOffsetsCodec("int32", "utf8");
    const bytes = codec.encode(chunkOf(["ok", "xx"]), stringSpec(2));
    bytes[64 + 2] = 0xff;
    await expect(codec.decodeToArrow(bytes, stringSpec(2))).rejects.toThrow(
      /item 1 is not valid UTF-8/,
    );
    await expect(
      codec.decodeToArrow(bytes, stringSpec(2), { validateUtf8: false }),
    ).resolves.toHaveLength(2);
  });
});

describe("toArrowVector and fromArrowVector", () => {
  it("round-trip strings and nulls; a chunk is taken in C order", async () => {
    const vector = await toArrowVector(["a", null, "ç", ""]);
    expect(vector.type).toBeInstanceOf(Utf8);
    expect(vector.nullCount).toBe(1);
    expect([...vector]).toEqual(["a", null, "ç", ""]);
    expect(fromArrowVector(vector)).toEqual(["a", null, "ç", ""]);
    const fOrder: Chunk = { data: ["a", "c", "b", "d"], shape: [2, 2], stride: [1, 2] };
    expect([...(await toArrowVector(fOrder))]).toEqual(["a", "b", "c", "d"]);
    expect((await toArrowVector(["x"], { large: true })).type).toBeInstanceOf(LargeUtf8);
  });

  it("bytes become Binary; fromArrowVector gives Uint8Arrays", async () => {
    const vector = await toArrowVector([new Uint8Array([9]), new Uint8Array(0)]);
    expect(vector.type).toBeInstanceOf(Binary);
    expect(fromArrowVector(vector).map((b) => Array.from(b as Uint8Array))).toEqual([[9], []]);
    await expect(toArrowVector(["a", new Uint8Array(1)])).rejects.toThrow(
      /element 1 is a Uint8Array/,
    );
  });

  it("reads sliced, multi-chunk, large and dictionary vectors", () => {
    const base = vectorFromArray(["p", "qq", "rrr", "ssss"], new Utf8());
    expect(fromArrowVector(base.slice(1, 3))).toEqual(["qq", "rrr"]);
    const gappy = vectorFromArray(["a", null, "b", null, "c"], new Utf8());
    expect(fromArrowVector(gappy.slice(1, 4))).toEqual([null, "b", null]);
    const joined = base.concat(vectorFromArray(["t"], new Utf8()));
    expect(fromArrowVector(joined)).toEqual(["p", "qq", "rrr", "ssss", "t"]);
    expect(fromArrowVector(vectorFromArray(["l", "m"], new LargeUtf8()))).toEqual(["l", "m"]);
    const dict = vectorFromArray(["u", "v", "u"], new Dictionary(new Utf8(), new Int32()));
    expect(fromArrowVector(dict)).toEqual(["u", "v", "u"]);
  });
});

/** A stand-in for a ZarrArray: a pipeline and a Map of chunks. */
function source(
  codecs: NamedConfig[],
  shape: number[],
  dataType: DataType,
  store: Map<string, Uint8Array>,
): ArrowChunkSource {
  const spec = { shape, dataType, fillValue: dataType.defaultFill };
  const pipeline = CodecPipeline.create(codecs, spec, 3);
  const key = (coords: readonly number[]) => `c/${coords.join("/")}`;
  return {
    access: {
      stored: { get: async (coords) => store.get(key(coords)) },
      runner: {
        pipeline,
        fillChunk: () => {
          const data = dataType.create(product(shape));
          dataType.fill(data, dataType.defaultFill);
          return { data, shape, stride: cOrderStrides(shape) };
        },
      },
    },
    getChunk: async (coords) => {
      const bytes = store.get(key(coords));
      return bytes === undefined ? undefined : pipeline.decode(bytes);
    },
    chunkKey: key,
  };
}

describe("readArrowChunk", () => {
  const texts = ["alpha", "", "γάμμα", "🚀"];

  it("reads compressed offsets-layout and vlen-utf8 chunks, and missing chunks as the fill", async () => {
    for (const serializer of [entry("z.vlen-offsets"), entry("vlen-utf8")]) {
      const store = new Map<string, Uint8Array>();
      const codecs = [serializer, entry("gzip", { level: 1 })];
      const array = source(codecs, [4], stringDataType, store);
      store.set("c/0", await array.access.runner.pipeline.encode(chunkOf(texts)));
      const vector = await readArrowChunk(array, [0]);
      expect(vector.type).toBeInstanceOf(Utf8);
      expect([...vector]).toEqual(texts);
      expect([...(await readArrowChunk(array, [1]))]).toEqual(["", "", "", ""]);
    }
  });

  it("is zero-copy for an uncompressed offsets-layout chunk", async () => {
    const store = new Map<string, Uint8Array>();
    const array = source([entry("z.vlen-offsets")], [4], stringDataType, store);
    const stored = await array.access.runner.pipeline.encode(chunkOf(texts));
    store.set("c/0", stored);
    const vector = await readArrowChunk(array, [0]);
    expect(vector.data[0].values.buffer).toBe(stored.buffer);
  });

  it("goes through the general path for chunks with a transpose, in C order", async () => {
    const store = new Map<string, Uint8Array>();
    const array = source(
      [entry("transpose", { order: [1, 0] }), entry("vlen-bytes")],
      [2, 2],
      bytesDataType,
      store,
    );
    const items = [[1], [2], [3], [4]].map((b) => new Uint8Array(b));
    store.set(
      "c/0/0",
      await array.access.runner.pipeline.encode({ data: items, shape: [2, 2], stride: [2, 1] }),
    );
    const vector = await readArrowChunk(array, [0, 0]);
    expect(vector.type).toBeInstanceOf(Binary);
    expect([...vector].map((b) => (b as Uint8Array)[0])).toEqual([1, 2, 3, 4]);
  });

  it("names the chunk in decode errors", async () => {
    const store = new Map<string, Uint8Array>([["c/0", new Uint8Array([1, 0, 0, 0])]]);
    const array = source([entry("vlen-utf8")], [4], stringDataType, store);
    await expect(readArrowChunk(array, [0])).rejects.toThrow(
      /^chunk \/c\/0: vlen-utf8: the chunk says it holds 1 items/,
    );
  });
});
