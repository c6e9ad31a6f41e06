// The numcodecs filters on vectors whose results are known without Python: numcodecs' own
// docstring examples and cases worked out by hand from its algorithms; and bad input, which
// must give typed errors (CodecConfigError for configurations, DecodeError for data).
import {
  type ArrayToArrayCodec,
  type BytesToBytesCodec,
  type ChunkSpec,
  CodecConfigError,
  CodecPipeline,
  DecodeError,
  loadCodecs,
  resolveCodec,
  ShuffleCodec,
} from "@z/codecs";
import { quantizeBits } from "@z/codecs/internal";
import { type DataType, resolveDataTypeV3 } from "@z/metadata";
import { type Chunk, cOrderStrides } from "@z/ndarray";
import { beforeAll, describe, expect, it } from "vitest";

const FILTERS = [
  "astype",
  "bitround",
  "delta",
  "fixedscaleoffset",
  "packbits",
  "quantize",
  "shuffle",
];
// The filters load on first use; the tests build them synchronously.
beforeAll(() => loadCodecs(FILTERS.map((name) => `numcodecs.${name}`)));

function specOf(type: string, shape: number[], fillValue?: unknown): ChunkSpec {
  const dataType = resolveDataTypeV3(type);
  return { shape, dataType, fillValue: fillValue ?? dataType.defaultFill };
}

function filter(
  name: string,
  configuration: Record<string, unknown>,
  spec: ChunkSpec,
): ArrayToArrayCodec {
  const codec = resolveCodec(
    { name: `numcodecs.${name}`, configuration: configuration as never, mustUnderstand: true },
    { spec, zarrFormat: 2 },
  );
  if (codec?.kind !== "array_to_array")
    throw new Error(`numcodecs.${name} is not an array-to-array codec`);
  return codec;
}

function chunkOf(
  dataType: DataType,
  values: readonly (number | bigint | boolean)[],
  shape = [values.length],
): Chunk {
  const data = dataType.create(values.length);
  values.forEach((v, i) => {
    dataType.setElement(data, i, dataType.coerce(v));
  });
  return { data, shape, stride: cOrderStrides(shape) };
}

const elements = (chunk: Chunk): number[] => Array.from(chunk.data as ArrayLike<number>);

async function encode(
  name: string,
  config: Record<string, unknown>,
  type: string,
  values: number[],
) {
  const spec = specOf(type, [values.length]);
  const codec = filter(name, config, spec);
  const encoded = await codec.encode(chunkOf(spec.dataType, values), spec);
  const decoded = await codec.decode(encoded, spec);
  return { encoded: elements(encoded), decoded: elements(decoded), codec, spec };
}

describe("known vectors (numcodecs docstrings and hand-worked cases)", () => {
  it("delta: int16 written as int8 differences (numcodecs' docstring)", async () => {
    const x = Array.from({ length: 10 }, (_, i) => 100 + 2 * i);
    const { encoded, decoded } = await encode("delta", { dtype: "i2", astype: "i1" }, "int16", x);
    expect(encoded).toEqual([100, 2, 2, 2, 2, 2, 2, 2, 2, 2]);
    expect(decoded).toEqual(x);
  });

  it("delta: uint8 differences wrap around, and decode back", async () => {
    const { encoded, decoded } = await encode("delta", { dtype: "|u1" }, "uint8", [250, 3, 255, 0]);
    // 3 - 250 = -247 = 9 (mod 256); 255 - 3 = 252; 0 - 255 = 1 (mod 256).
    expect(encoded).toEqual([250, 9, 252, 1]);
    expect(decoded).toEqual([250, 3, 255, 0]);
  });

  it("delta: bool encodes with != and decodes with OR, as numcodecs does", async () => {
    const { encoded, decoded } = await encode("delta", { dtype: "|b1" }, "bool", [1, 0, 0, 1, 1]);
    // numpy.diff on bool is not_equal; numpy.cumsum into a bool output is logical or.
    expect(encoded).toEqual([1, 1, 0, 1, 0]);
    expect(decoded).toEqual([1, 1, 1, 1, 1]);
  });

  it("fixedscaleoffset: numcodecs' docstring examples", async () => {
    const x = Array.from({ length: 10 }, (_, i) => 1000 + i / 9);
    const base = { offset: 1000, dtype: "<f8" };
    expect(
      (await encode("fixedscaleoffset", { ...base, scale: 10, astype: "u1" }, "float64", x))
        .encoded,
    ).toEqual([0, 1, 2, 3, 4, 6, 7, 8, 9, 10]);
    const scale100 = await encode(
      "fixedscaleoffset",
      { ...base, scale: 100, astype: "u1" },
      "float64",
      x,
    );
    expect(scale100.encoded).toEqual([0, 11, 22, 33, 44, 56, 67, 78, 89, 100]);
    expect(scale100.decoded).toEqual([
      1000, 1000.11, 1000.22, 1000.33, 1000.44, 1000.56, 1000.67, 1000.78, 1000.89, 1001,
    ]);
    expect(
      (await encode("fixedscaleoffset", { ...base, scale: 1000, astype: "u2" }, "float64", x))
        .encoded,
    ).toEqual([0, 111, 222, 333, 444, 556, 667, 778, 889, 1000]);
  });

  it("fixedscaleoffset: rounds halves to even (numpy.around)", async () => {
    const { encoded } = await encode(
      "fixedscaleoffset",
      { offset: 0, scale: 1, dtype: "<f8", astype: "<i4" },
      "float64",
      [0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 2.5000001],
    );
    expect(encoded).toEqual([0, 2, 2, 0, -2, -2, 3]);
  });

  it("quantize: numcodecs' docstring examples and its bit counts", async () => {
    expect([
      quantizeBits(1),
      quantizeBits(2),
      quantizeBits(3),
      quantizeBits(0),
      quantizeBits(-1),
    ]).toEqual([4, 7, 10, 0, -3]);
    const x = Array.from({ length: 10 }, (_, i) => i / 9);
    expect((await encode("quantize", { digits: 1, dtype: "<f8" }, "float64", x)).encoded).toEqual([
      0, 0.125, 0.25, 0.3125, 0.4375, 0.5625, 0.6875, 0.75, 0.875, 1,
    ]);
    expect((await encode("quantize", { digits: 2, dtype: "<f8" }, "float64", x)).encoded).toEqual([
      0, 0.109375, 0.21875, 0.3359375, 0.4453125, 0.5546875, 0.6640625, 0.78125, 0.890625, 1,
    ]);
    // digits -1 scales by 1/8: 4/8 and -4/8 are ties that go to the even 0 (and -0).
    const coarse = await encode(
      "quantize",
      { digits: -1, dtype: "<f8" },
      "float64",
      [3, 4, 12, 13, -4],
    );
    expect(coarse.encoded).toEqual([0, 0, 16, 16, -0]);
  });

  it("bitround: rounds the mantissa to nearest, ties to even, on the bit pattern", async () => {
    // keepbits 1 on float32: representable 1.0, 1.5, 2.0; 1.25 and 1.75 are ties.
    expect(
      (await encode("bitround", { keepbits: 1 }, "float32", [1.5, 1.25, 1.75, 1.3])).encoded,
    ).toEqual([1.5, 1, 2, 1.5]);
    // keepbits 0: 1.5 is a tie between 1 (odd exponent) and 2 (even exponent).
    expect(
      (await encode("bitround", { keepbits: 0 }, "float32", [1.5, 1.25, 1.75, 1.3])).encoded,
    ).toEqual([2, 1, 2, 1]);
    // float64 with 32 dropped bits: the carry crosses from the low word into the high word.
    const carried = await encode("bitround", { keepbits: 20 }, "float64", [
      1 + 2 ** -20 + 2 ** -21,
      1 + 2 ** -21,
    ]);
    expect(carried.encoded).toEqual([1 + 2 ** -19, 1]);
    const ties = await encode("bitround", { keepbits: 51 }, "float64", [
      1 + 2 ** -52,
      1 + 3 * 2 ** -52,
    ]);
    expect(ties.encoded).toEqual([1, 1 + 4 * 2 ** -52]);
    // As in numcodecs: with no mantissa bits kept the largest finite value carries into
    // infinity, and the quiet NaN's pattern carries all the way round to -0.
    const edges = await encode("bitround", { keepbits: 0 }, "float64", [
      Number.MAX_VALUE,
      Number.POSITIVE_INFINITY,
      Number.NaN,
    ]);
    expect(edges.encoded).toEqual([Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY, -0]);
    // keepbits equal to the mantissa width is the identity; decoding is the identity.
    const same = await encode("bitround", { keepbits: 23 }, "float32", [
      Math.fround(Math.PI),
      -0,
      Number.NaN,
    ]);
    expect(same.encoded).toEqual([Math.fround(Math.PI), -0, Number.NaN]);
    expect(same.decoded).toEqual(same.encoded);
  });

  it("astype: wraps, truncates and maps NaN as NumPy on x86-64 does", async () => {
    const x = [300.7, -1.5, Number.NaN, 1e10];
    expect(
      (await encode("astype", { encode_dtype: "|u1", decode_dtype: "<f8" }, "float64", x)).encoded,
    ).toEqual([44, 255, 0, 0]);
    expect(
      (await encode("astype", { encode_dtype: "|i1", decode_dtype: "<f8" }, "float64", x)).encoded,
    ).toEqual([44, -1, 0, 0]);
    const int32 = await encode(
      "astype",
      { encode_dtype: "<i4", decode_dtype: "<f8" },
      "float64",
      x,
    );
    expect(int32.encoded).toEqual([300, -1, -(2 ** 31), -(2 ** 31)]);
    expect(int32.decoded).toEqual([300, -1, -(2 ** 31), -(2 ** 31)]);
    const wrapped = await encode("astype", { encode_dtype: "<i2", decode_dtype: "<i4" }, "int32", [
      40000,
      -40000,
      65536 + 7,
    ]);
    expect(wrapped.encoded).toEqual([-25536, 25536, 7]);
  });

  it("packbits: numcodecs' docstring example, most significant bit first after the padding count", async () => {
    const { encoded, decoded } = await encode("packbits", {}, "bool", [1, 0, 0, 1]);
    expect(encoded).toEqual([4, 144]);
    expect(decoded).toEqual([1, 0, 0, 1]);
    const nine = await encode("packbits", {}, "bool", [1, 1, 1, 1, 1, 1, 1, 1, 1]);
    expect(nine.encoded).toEqual([7, 255, 128]);
    const empty = await encode("packbits", {}, "bool", []);
    expect(empty.encoded).toEqual([0]);
    expect(empty.decoded).toEqual([]);
  });

  it("shuffle: groups the k-th bytes of every element together", () => {
    const codec = new ShuffleCodec(4);
    const bytes = Uint8Array.from([
      0x11, 0x12, 0x13, 0x14, 0x21, 0x22, 0x23, 0x24, 0x31, 0x32, 0x33, 0x34,
    ]);
    const shuffled = codec.encode(bytes);
    expect([...shuffled]).toEqual([
      0x11, 0x21, 0x31, 0x12, 0x22, 0x32, 0x13, 0x23, 0x33, 0x14, 0x24, 0x34,
    ]);
    expect([...codec.decode(shuffled, { expectedSize: 12, maxSize: 12 })]).toEqual([...bytes]);
    // The same from an unaligned view (no 32-bit word access), and with 3-byte elements.
    const unaligned = new Uint8Array(bytes.length + 1);
    unaligned.set(bytes, 1);
    expect([...codec.encode(unaligned.subarray(1))]).toEqual([...shuffled]);
    const three = new ShuffleCodec(3).encode(bytes.subarray(0, 9));
    expect([...three]).toEqual([0x11, 0x14, 0x23, 0x12, 0x21, 0x24, 0x13, 0x22, 0x31]);
    expect([...new ShuffleCodec(3).decode(three, { maxSize: 9 })]).toEqual([
      ...bytes.subarray(0, 9),
    ]);
    // elementsize 0 and 1 leave the bytes alone, as numcodecs does.
    expect([...new ShuffleCodec(0).encode(bytes)]).toEqual([...bytes]);
  });

  it("writes numcodecs' configuration fields back (toJson)", () => {
    const spec = specOf("float64", [4]);
    expect(filter("delta", { dtype: "<f8" }, spec).toJson()).toEqual({
      name: "numcodecs.delta",
      configuration: { dtype: "<f8", astype: "<f8" },
      mustUnderstand: true,
    });
    expect(
      filter(
        "fixedscaleoffset",
        { offset: 1, scale: 2, dtype: "<f8", astype: "<i2" },
        spec,
      ).toJson().configuration,
    ).toEqual({
      offset: 1,
      scale: 2,
      dtype: "<f8",
      astype: "<i2",
    });
    expect(
      filter("quantize", { digits: 3, dtype: "float64" }, spec).toJson().configuration,
    ).toEqual({
      digits: 3,
      dtype: "float64",
      astype: "float64",
    });
    const shuffle = resolveCodec(
      { name: "numcodecs.shuffle", configuration: {}, mustUnderstand: true },
      { spec, zarrFormat: 3 },
    ) as BytesToBytesCodec;
    expect(shuffle.toJson().configuration).toEqual({ elementsize: 8 });
  });
});

describe("bad configurations are CodecConfigError", () => {
  const float32 = specOf("float32", [4]);
  const int32 = specOf("int32", [4]);
  const bad: [string, Record<string, unknown>, ChunkSpec, RegExp][] = [
    ["delta", {}, int32, /needs "dtype"/],
    ["delta", { dtype: "<q9" }, int32, /unknown dtype "<q9"/],
    ["delta", { dtype: 42 }, int32, /must be a NumPy dtype string/],
    ["delta", { dtype: "<i4", astype: "float128" }, int32, /unknown dtype "float128"/],
    ["delta", { dtype: "<f4" }, int32, /but the chunks it receives are int32/],
    ["fixedscaleoffset", { scale: 10, dtype: "<f4" }, float32, /needs "offset"/],
    [
      "fixedscaleoffset",
      { offset: 0, scale: "10", dtype: "<f4" },
      float32,
      /"scale" must be a finite number/,
    ],
    [
      "fixedscaleoffset",
      { offset: 0, scale: 10, dtype: "<f4", astype: "|b1" },
      float32,
      /integer or float type/,
    ],
    ["quantize", { dtype: "<f4" }, float32, /needs "digits"/],
    ["quantize", { digits: 1.5, dtype: "<f4" }, float32, /"digits" must be an integer/],
    [
      "quantize",
      { digits: 1000, dtype: "<f4" },
      float32,
      /"digits" must be an integer from -300 to 300/,
    ],
    ["quantize", { digits: 2, dtype: "<i4" }, int32, /must be a float type/],
    [
      "quantize",
      { digits: 2, dtype: "<f4", astype: "<i2" },
      float32,
      /"astype" must be a float type/,
    ],
    ["bitround", {}, float32, /needs "keepbits"/],
    ["bitround", { keepbits: 24 }, float32, /from 0 to 23/],
    ["bitround", { keepbits: 11 }, specOf("float16", [4]), /from 0 to 10/],
    ["bitround", { keepbits: 53 }, specOf("float64", [4]), /from 0 to 52/],
    ["bitround", { keepbits: -1 }, float32, /"keepbits" must be an integer/],
    ["bitround", { keepbits: 3 }, int32, /only float16, float32 and float64/],
    ["astype", { encode_dtype: "<i2" }, int32, /needs "decode_dtype"/],
    ["astype", { encode_dtype: "<x2", decode_dtype: "<i4" }, int32, /unknown dtype "<x2"/],
    ["packbits", {}, int32, /only bool \(or int8\/uint8\)/],
  ];
  for (const [name, config, spec, message] of bad) {
    it(`numcodecs.${name} ${JSON.stringify(config)} on ${spec.dataType.name}`, () => {
      const attempt = () =>
        resolveCodec(
          { name: `numcodecs.${name}`, configuration: config as never, mustUnderstand: true },
          { spec, zarrFormat: 2 },
        );
      expect(attempt).toThrow(CodecConfigError);
      expect(attempt).toThrow(message);
    });
  }

  it("numcodecs.shuffle: a bad elementsize, or chunks that do not divide into elements", () => {
    const make = (configuration: Record<string, unknown>, spec: ChunkSpec) => () =>
      resolveCodec(
        { name: "numcodecs.shuffle", configuration: configuration as never, mustUnderstand: true },
        { spec, zarrFormat: 2 },
      );
    expect(make({ elementsize: -1 }, int32)).toThrow(CodecConfigError);
    expect(make({ elementsize: 2.5 }, int32)).toThrow(CodecConfigError);
    expect(make({ elementsize: "4" }, int32)).toThrow(CodecConfigError);
    expect(make({ elementsize: 4 }, specOf("uint8", [10]))).toThrow(
      /10 bytes, not a multiple of "elementsize" 4/,
    );
    const error = (() => {
      try {
        make({ elementsize: -1 }, int32)();
      } catch (e) {
        return e as Error;
      }
    })();
    expect(error?.name).toBe("CodecConfigError");
  });
});

describe("bad data is DecodeError", () => {
  const wrongLength: [string, Record<string, unknown>, string][] = [
    ["delta", { dtype: "<i4" }, "int32"],
    ["fixedscaleoffset", { offset: 1, scale: 10, dtype: "<f8", astype: "<i2" }, "float64"],
    ["quantize", { digits: 2, dtype: "<f8", astype: "<f4" }, "float64"],
    ["bitround", { keepbits: 3 }, "float32"],
    ["astype", { encode_dtype: "<i2", decode_dtype: "<i4" }, "int32"],
    ["packbits", {}, "bool"],
  ];
  for (const [name, config, type] of wrongLength) {
    it(`numcodecs.${name}: an encoded chunk of the wrong length`, async () => {
      const spec = specOf(type, [3, 4]);
      const codec = filter(name, config, spec);
      const encodedSpec = codec.encodedSpec(spec);
      const short = chunkOf(encodedSpec.dataType, [1, 0, 1, 0, 1]);
      await expect(async () => codec.decode(short, spec)).rejects.toThrow(DecodeError);
      await expect(async () => codec.decode(short, spec)).rejects.toThrow(
        /the chunk needs exactly/,
      );
      // Through a pipeline, the bytes codec refuses a wrongly sized chunk first.
      const pipeline = CodecPipeline.create(
        [
          codec.toJson(),
          { name: "bytes", configuration: { endian: "little" }, mustUnderstand: true },
        ],
        spec,
        2,
      );
      const good = await pipeline.encode(
        chunkOf(
          spec.dataType,
          Array.from({ length: 12 }, (_, i) => i % 2),
          [3, 4],
        ),
      );
      await expect(pipeline.decode(good.subarray(0, good.length - 1))).rejects.toThrow(DecodeError);
      expect((await pipeline.decode(good)).shape).toEqual([3, 4]);
    });
  }

  it("numcodecs.packbits: a header that does not match the chunk's padding", async () => {
    const spec = specOf("bool", [10]);
    const codec = filter("packbits", {}, spec);
    const bad = chunkOf(resolveDataTypeV3("uint8"), [5, 255, 192]);
    await expect(async () => codec.decode(bad, spec)).rejects.toThrow(
      /header says 5 padding bits; a chunk of 10 elements has 6/,
    );
    const good = chunkOf(resolveDataTypeV3("uint8"), [6, 255, 192]);
    expect(elements(await codec.decode(good, spec))).toEqual([1, 1, 1, 1, 1, 1, 1, 1, 1, 1]);
  });

  it("numcodecs.shuffle: lengths that are not whole elements, or beyond the bound", () => {
    const codec = new ShuffleCodec(4);
    expect(() => codec.decode(new Uint8Array(10), { maxSize: 100 })).toThrow(DecodeError);
    expect(() => codec.decode(new Uint8Array(10), { maxSize: 100 })).toThrow(
      /not a multiple of "elementsize" 4/,
    );
    expect(() => codec.decode(new Uint8Array(16), { maxSize: 12 })).toThrow(/at most 12/);
    expect(() => codec.decode(new Uint8Array(16), { expectedSize: 12, maxSize: 12 })).toThrow(
      DecodeError,
    );
    expect(() => codec.encode(new Uint8Array(10))).toThrow(/not a multiple/);
  });
});
