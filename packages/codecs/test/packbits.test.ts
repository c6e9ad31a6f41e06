// The `packbits` codec of the zarr-extensions registry. Expected bytes are worked out by hand
// from the README (components in C order, bits first_bit..last_bit of each, bit i of the
// stream is bit i % 8 of byte i / 8, zero padding, optional padding-count byte), and a
// property test compares the codec with a model that builds the bit stream as a string.
import { type ChunkSpec, CodecConfigError, DecodeError, loadCodecs, resolveCodec } from "@z/codecs";
import { chunkOf } from "@z/codecs/testing";
import { type JsonObject, loadDataTypes, packedComponentsOf, resolveDataTypeV3 } from "@z/metadata";
import type { Chunk } from "@z/ndarray";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";

// The codec and the small types it packs (uint4, float6_e3m2fn, ...) load on first use; the
// tests build them synchronously.
beforeAll(() => Promise.all([loadCodecs(["packbits"]), loadDataTypes()]));

const spec = (dtype: string, shape: number[]): ChunkSpec => ({
  shape,
  dataType: resolveDataTypeV3(dtype),
  fillValue: resolveDataTypeV3(dtype).defaultFill,
});

function codecFor(s: ChunkSpec, configuration: JsonObject = {}) {
  const codec = resolveCodec(
    { name: "packbits", configuration, mustUnderstand: true },
    { spec: s, zarrFormat: 3 },
  );
  if (codec?.kind !== "array_to_bytes") throw new Error("packbits is an array-to-bytes codec");
  return codec;
}

async function pack(dtype: string, values: unknown[], configuration: JsonObject = {}) {
  const s = spec(dtype, [values.length]);
  const codec = codecFor(s, configuration);
  const bytes = await codec.encode(chunkOf(s, values), s);
  expect(codec.encodedSize?.(s)).toBe(bytes.length);
  const back = (await codec.decode(bytes, s)) as Chunk;
  const decoded = Array.from({ length: values.length }, (_, i) =>
    s.dataType.getElement(back.data, i),
  );
  return { hex: Buffer.from(bytes).toString("hex"), decoded };
}

describe("packbits: bytes by hand from the registry README", () => {
  it("uint4: two values per byte, the first in the low nibble", async () => {
    // 1 | 2 << 4 = 0x21, then 3 and 4 padding bits.
    expect(await pack("uint4", [1, 2, 3])).toEqual({ hex: "2103", decoded: [1, 2, 3] });
    expect((await pack("uint4", [1, 2, 3], { padding_encoding: "first_byte" })).hex).toBe("042103");
    expect((await pack("uint4", [1, 2, 3], { padding_encoding: "last_byte" })).hex).toBe("210304");
    // The schema's names for the same settings.
    expect((await pack("uint4", [1, 2, 3], { padding_encoding: "start_byte" })).hex).toBe("042103");
    expect((await pack("uint4", [1, 2, 3], { padding_encoding: "end_byte" })).hex).toBe("210304");
    expect((await pack("uint4", [1, 2], { padding_encoding: "first_byte" })).hex).toBe("0021");
  });

  it("int2: two's complement in 2 bits, sign-extended when decoded", async () => {
    // codes 3, 0, 1, 2 -> 0b10_01_00_11 = 0x93; then 1 -> 0x01 with 6 padding bits.
    expect(await pack("int2", [-1, 0, 1, -2, 1], { padding_encoding: "first_byte" })).toEqual({
      hex: "069301",
      decoded: [-1, 0, 1, -2, 1],
    });
  });

  it("int4 and float4_e2m1fn: 4 bits each", async () => {
    // -8 -> 0x8, 7 -> 0x7, -1 -> 0xf.
    expect(await pack("int4", [-8, 7, -1])).toEqual({ hex: "780f", decoded: [-8, 7, -1] });
    // 1 -> 0x2, -6 -> 0xf (0 01 0 and 1 11 1).
    expect(await pack("float4_e2m1fn", [1, -6])).toEqual({ hex: "f2", decoded: [1, -6] });
  });

  it("float6: 6 bits each, crossing byte boundaries", async () => {
    // e2m3fn: 1 -> 0b001000, -1 -> 0b101000; stream 000100 000101 (lsb first) ->
    // byte0 = 0x08 | (0x28 & 3) << 6 = 0x08, byte1 = 0x28 >> 2 = 0x0a.
    expect(await pack("float6_e2m3fn", [1, -1])).toEqual({ hex: "080a", decoded: [1, -1] });
    // e3m2fn: 28 -> 0x1f, 0.0625 -> 0x01, 1 -> 0x0c, -28 -> 0x3f:
    // 0x1f | 0x01 << 6 = 0x5f; 0x01 >> 2 | 0x0c << 4 = 0xc0; 0x0c >> 4 | 0x3f << 2 = 0xfc.
    expect(await pack("float6_e3m2fn", [28, 0.0625, 1, -28])).toEqual({
      hex: "5fc0fc",
      decoded: [28, 0.0625, 1, -28],
    });
  });

  it("bool: one bit each, first element in the least significant bit", async () => {
    const values = [true, false, true, true, false, false, false, false, true];
    expect(await pack("bool", values)).toEqual({ hex: "0d01", decoded: values });
  });

  it("complex types: real then imaginary component", async () => {
    // 1 -> 0x2, -1 -> 0xa.
    expect((await pack("complex_float4_e2m1fn", [{ re: 1, im: -1 }])).hex).toBe("a2");
    expect((await pack("complex_float4_e2m1fn", [{ re: 1, im: -1 }])).decoded).toEqual([
      { re: 1, im: -1 },
    ]);
    // complex_bfloat16 at full width is its little-endian bytes form.
    expect((await pack("complex_bfloat16", [{ re: 1, im: -2 }])).hex).toBe("803f00c0");
  });

  it("wider types at full width are the bytes codec's little-endian form", async () => {
    expect((await pack("int16", [0x1234, -2])).hex).toBe("3412feff");
    expect((await pack("float32", [1])).hex).toBe("0000803f");
    expect((await pack("bfloat16", [1])).hex).toBe("803f");
  });

  it("first_bit and last_bit keep a bit range; signed values are sign-extended from last_bit", async () => {
    // Bits 4..11 of 0x1234 are 0x23; of 0x0ff0, 0xff.
    expect(await pack("uint16", [0x1234, 0x0ff0], { first_bit: 4, last_bit: 11 })).toEqual({
      hex: "23ff",
      decoded: [0x0230, 0x0ff0],
    });
    // int16 -3 is 0xfffd; bits 0..7 are 0xfd, and decoding extends bit 7 up to bit 15.
    expect(await pack("int16", [-3, 5], { first_bit: 0, last_bit: 7 })).toEqual({
      hex: "fd05",
      decoded: [-3, 5],
    });
    // int32 in 3 bits: -4..3 survive.
    expect(await pack("int32", [-4, 3, -1], { last_bit: 2 })).toEqual({
      hex: "dc01",
      decoded: [-4, 3, -1],
    });
  });
});

describe("packbits: errors", () => {
  it("refuses bad configurations and unsupported data types", () => {
    const s = spec("uint8", [4]);
    for (const configuration of [
      { padding_encoding: "both" },
      { first_bit: 5, last_bit: 4 },
      { last_bit: 8 },
      { first_bit: -1 },
      { first_bit: 1.5 },
      { unknown: 1 },
    ]) {
      expect(
        () => codecFor(s, configuration as unknown as JsonObject),
        JSON.stringify(configuration),
      ).toThrow(CodecConfigError);
    }
    const utf32 = resolveDataTypeV3({
      name: "fixed_length_utf32",
      configuration: { length_bytes: 4 },
    });
    expect(packedComponentsOf(utf32)).toBe(undefined);
    expect(() => codecFor({ shape: [2], dataType: utf32, fillValue: "" })).toThrow(/not supported/);
  });

  it("refuses chunks of the wrong length or with a wrong padding count", async () => {
    const s = spec("uint4", [3]);
    const codec = codecFor(s, { padding_encoding: "first_byte" });
    await expect(async () => codec.decode(Uint8Array.of(4, 0x21), s)).rejects.toThrow(DecodeError);
    await expect(async () => codec.decode(Uint8Array.of(3, 0x21, 0x03), s)).rejects.toThrow(
      /padding/,
    );
    expect(codec.toJson()).toEqual({
      name: "packbits",
      configuration: { padding_encoding: "first_byte" },
      mustUnderstand: true,
    });
  });
});

/** The model: the bit stream as a string of '0'/'1', least significant bit of each component first. */
function modelPack(codes: number[], bits: number, padding: "none" | "first_byte" | "last_byte") {
  let stream = codes
    .map((c) => c.toString(2).padStart(bits, "0").split("").reverse().join(""))
    .join("");
  const pad = (8 - (stream.length % 8)) % 8;
  stream += "0".repeat(pad);
  const out: number[] = [];
  for (let i = 0; i < stream.length; i += 8) {
    out.push(
      Number.parseInt(
        stream
          .slice(i, i + 8)
          .split("")
          .reverse()
          .join(""),
        2,
      ),
    );
  }
  if (padding === "first_byte") out.unshift(pad);
  if (padding === "last_byte") out.push(pad);
  return out;
}

describe("packbits: property against a bit-string model", () => {
  const types: [string, number, (code: number) => unknown][] = [
    ["uint2", 2, (c) => c],
    ["int4", 4, (c) => (c > 7 ? c - 16 : c)],
    [
      "float6_e3m2fn",
      6,
      (c) => resolveDataTypeV3("float6_e3m2fn").decode(Uint8Array.of(c), 1, "little")[0 as never],
    ],
    ["bool", 1, (c) => c === 1],
  ];
  for (const [dtype, bits, fromCode] of types) {
    it(`${dtype}: encode matches the model and decode inverts it`, async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.integer({ min: 0, max: 2 ** bits - 1 }), { minLength: 1, maxLength: 40 }),
          fc.constantFrom("none" as const, "first_byte" as const, "last_byte" as const),
          async (codes, padding) => {
            const values = codes.map(fromCode);
            const s = spec(dtype, [codes.length]);
            const codec = codecFor(s, { padding_encoding: padding });
            const bytes = await codec.encode(chunkOf(s, values), s);
            expect(Array.from(bytes)).toEqual(modelPack(codes, bits, padding));
            const back = (await codec.decode(bytes, s)) as Chunk;
            const decoded = codes.map((_, i) => s.dataType.getElement(back.data, i));
            expect(decoded).toEqual(values);
          },
        ),
        { numRuns: 200 },
      );
    });
  }
});
