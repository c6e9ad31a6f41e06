import {
  BloscCodec,
  type BytesToBytesCodec,
  type ChunkSpec,
  CodecConfigError,
  hasCodec,
  loadCodecs,
  readBloscHeader,
  resolveCodec,
} from "@z/codecs";
import { type JsonObject, resolveDataTypeV3 } from "@z/metadata";
import { beforeAll, describe, expect, it } from "vitest";

// Blosc loads on first use; codec() builds it synchronously.
beforeAll(() => loadCodecs(["blosc", "numcodecs.blosc"]));

function spec(dataType: string, shape = [1000]): ChunkSpec {
  return { shape, dataType: resolveDataTypeV3(dataType), fillValue: 0 };
}

function codec(name: string, configuration: JsonObject, dataType = "float32"): BytesToBytesCodec {
  const c = resolveCodec(
    { name, configuration, mustUnderstand: true },
    { spec: spec(dataType), zarrFormat: name === "blosc" ? 3 : 2 },
  );
  if (c?.kind !== "bytes_to_bytes") throw new Error("not a bytes codec");
  return c;
}

/** Smooth float32 data: barely compressible as is, compressible once shuffled. */
function smoothBytes(n: number): Uint8Array {
  const a = new Float32Array(n);
  for (let i = 0; i < n; i++) a[i] = 1000 + Math.sin(i / 50) * 10;
  return new Uint8Array(a.buffer);
}

/** Float32 steps: compressible with or without a shuffle. */
function stepBytes(n: number): Uint8Array {
  const a = new Float32Array(n);
  for (let i = 0; i < n; i++) a[i] = Math.round(Math.sin(i / 50) * 16);
  return new Uint8Array(a.buffer);
}

const FLAG_BYTE_SHUFFLE = 0x01;
const FLAG_MEMCPYED = 0x02;
const FLAG_BIT_SHUFFLE = 0x04;

describe("blosc codec registration and configuration", () => {
  it("registers blosc and numcodecs.blosc", () => {
    expect(hasCodec("blosc")).toBe(true);
    expect(hasCodec("numcodecs.blosc")).toBe(true);
    expect(
      codec("blosc", { cname: "lz4", clevel: 5, shuffle: "shuffle", typesize: 4, blocksize: 0 }),
    ).toBeInstanceOf(BloscCodec);
  });

  it("round-trips its configuration to metadata", () => {
    const v3 = { cname: "zstd", clevel: 3, shuffle: "bitshuffle", typesize: 2, blocksize: 0 };
    expect(codec("blosc", v3).toJson()).toEqual({
      name: "blosc",
      configuration: v3,
      mustUnderstand: true,
    });
    const v2 = { cname: "lz4", clevel: 5, shuffle: -1, blocksize: 0 };
    expect(codec("numcodecs.blosc", v2).toJson()).toEqual({
      name: "numcodecs.blosc",
      configuration: v2,
      mustUnderstand: true,
    });
  });

  it("writes the chunk's element size as typesize when the v3 configuration has none", () => {
    const c = codec("blosc", { cname: "lz4", clevel: 5, shuffle: "shuffle" }, "int16");
    expect((c.toJson().configuration as JsonObject).typesize).toBe(2);
  });

  const bad: [string, JsonObject, RegExp][] = [
    ["blosc", { cname: "lz5", clevel: 5, shuffle: "shuffle" }, /unknown "cname" "lz5"/],
    [
      "blosc",
      { cname: "lz4", clevel: 10, shuffle: "shuffle" },
      /"clevel" must be an integer from 0 to 9, got 10/,
    ],
    [
      "blosc",
      { cname: "lz4", clevel: -1, shuffle: "shuffle" },
      /"clevel" must be an integer from 0 to 9/,
    ],
    ["blosc", { cname: "lz4", clevel: 2.5, shuffle: "shuffle" }, /"clevel" must be an integer/],
    [
      "blosc",
      { cname: "lz4", clevel: 5, shuffle: 7 },
      /"shuffle" must be one of "noshuffle", "shuffle", "bitshuffle", got 7/,
    ],
    ["blosc", { cname: "lz4", clevel: 5, shuffle: "byteshuffle" }, /"shuffle" must be one of/],
    ["blosc", { cname: "lz4", clevel: 5 }, /no "shuffle"/],
    ["blosc", { clevel: 5, shuffle: "shuffle" }, /no "cname"/],
    [
      "blosc",
      { cname: "lz4", clevel: 5, shuffle: "shuffle", typesize: 0 },
      /"typesize" must be a positive integer/,
    ],
    [
      "blosc",
      { cname: "lz4", clevel: 5, shuffle: "shuffle", blocksize: -1 },
      /"blocksize" must be a non-negative integer/,
    ],
    ["numcodecs.blosc", { cname: "LZ4", clevel: 5, shuffle: 1 }, /unknown "cname" "LZ4"/],
    [
      "numcodecs.blosc",
      { cname: "lz4", clevel: 12, shuffle: 1 },
      /"clevel" must be an integer from 0 to 9, got 12/,
    ],
    [
      "numcodecs.blosc",
      { cname: "lz4", clevel: 5, shuffle: 3 },
      /"shuffle" must be 0 \(none\), 1 \(byte\), 2 \(bit\) or -1 \(auto\), got 3/,
    ],
    ["numcodecs.blosc", { cname: "lz4", clevel: 5, shuffle: "shuffle" }, /"shuffle" must be 0/],
  ];
  for (const [name, configuration, message] of bad) {
    it(`rejects ${name} ${JSON.stringify(configuration)}`, () => {
      expect(() => codec(name, configuration)).toThrow(CodecConfigError);
      expect(() => codec(name, configuration)).toThrow(message);
    });
  }

  it("fills numcodecs' defaults (lz4, clevel 5, byte shuffle)", () => {
    expect(codec("numcodecs.blosc", {}).toJson().configuration).toEqual({
      cname: "lz4",
      clevel: 5,
      shuffle: 1,
      blocksize: 0,
    });
  });
});

describe("blosc header flags for every shuffle mode", () => {
  const data = stepBytes(4096);

  async function header(
    name: string,
    configuration: JsonObject,
    dataType = "float32",
    bytes = data,
  ) {
    const c = codec(name, configuration, dataType);
    const frame = await c.encode(bytes);
    const decoded = await c.decode(frame, { expectedSize: bytes.length, maxSize: bytes.length });
    expect(Buffer.from(decoded).equals(Buffer.from(bytes))).toBe(true);
    return readBloscHeader(frame);
  }

  // The v3 strings must reach c-blosc's filter codes: a peer that passes them through writes
  // unshuffled frames for "shuffle" and "bitshuffle" alike.
  const v3Cases: [string, number, number][] = [
    ["noshuffle", 0, 0],
    ["shuffle", FLAG_BYTE_SHUFFLE, 0],
    ["bitshuffle", 0, FLAG_BIT_SHUFFLE],
  ];
  for (const cname of ["lz4", "zstd", "blosclz"]) {
    for (const [shuffle, byteBit, bitBit] of v3Cases) {
      it(`blosc ${cname} shuffle "${shuffle}" sets the byte-shuffle bit ${byteBit}, the bit-shuffle bit ${bitBit >> 2}`, async () => {
        const h = await header("blosc", { cname, clevel: 5, shuffle, typesize: 4, blocksize: 0 });
        expect(h.flags & FLAG_BYTE_SHUFFLE).toBe(byteBit);
        expect(h.flags & FLAG_BIT_SHUFFLE).toBe(bitBit);
        expect(h.typesize).toBe(4);
        expect(h.flags & FLAG_MEMCPYED).toBe(0);
      });
    }
  }

  it("shuffling changes the stored bytes, not just the flags", async () => {
    const smooth = smoothBytes(4096);
    const frames = await Promise.all(
      ["noshuffle", "shuffle", "bitshuffle"].map((shuffle) =>
        codec("blosc", { cname: "lz4", clevel: 5, shuffle, typesize: 4 }).encode(smooth),
      ),
    );
    const [plain, byte, bit] = frames;
    // Smooth floats do not compress as they are, but do once their bytes are grouped.
    expect(readBloscHeader(plain).flags & FLAG_MEMCPYED).toBe(FLAG_MEMCPYED);
    expect(byte.length).toBeLessThan(plain.length * 0.6);
    expect(bit.length).toBeLessThan(plain.length * 0.6);
    expect(Buffer.from(byte).equals(Buffer.from(bit))).toBe(false);
  });

  it("takes typesize from the configuration, else from the chunk's element size", async () => {
    expect(
      (await header("blosc", { cname: "lz4", clevel: 5, shuffle: "shuffle", typesize: 8 }))
        .typesize,
    ).toBe(8);
    expect(
      (await header("blosc", { cname: "lz4", clevel: 5, shuffle: "shuffle" }, "int16")).typesize,
    ).toBe(2);
    expect(
      (await header("numcodecs.blosc", { cname: "lz4", clevel: 5, shuffle: 1 }, "float64"))
        .typesize,
    ).toBe(8);
    expect(
      (await header("numcodecs.blosc", { cname: "lz4", clevel: 5, shuffle: 1 }, "uint8")).typesize,
    ).toBe(1);
  });

  const numcodecsCases: [number, string, number][] = [
    [0, "float32", 0],
    [1, "float32", FLAG_BYTE_SHUFFLE],
    [2, "float32", FLAG_BIT_SHUFFLE],
    // AUTOSHUFFLE: bit shuffle for 1-byte items, byte shuffle otherwise, as numcodecs does.
    [-1, "uint8", FLAG_BIT_SHUFFLE],
    [-1, "float32", FLAG_BYTE_SHUFFLE],
  ];
  for (const [shuffle, dataType, flag] of numcodecsCases) {
    it(`numcodecs.blosc shuffle ${shuffle} on ${dataType} sets flags 0x${flag.toString(16)}`, async () => {
      const h = await header("numcodecs.blosc", { cname: "lz4", clevel: 5, shuffle }, dataType);
      expect(h.flags & (FLAG_BYTE_SHUFFLE | FLAG_BIT_SHUFFLE)).toBe(flag);
    });
  }

  it("sets the memcpyed flag for clevel 0, tiny buffers and incompressible data", async () => {
    expect(
      (await header("blosc", { cname: "lz4", clevel: 0, shuffle: "shuffle", typesize: 4 })).flags &
        FLAG_MEMCPYED,
    ).toBe(FLAG_MEMCPYED);
    const tiny = data.subarray(0, 100);
    expect(
      (
        await header(
          "blosc",
          { cname: "lz4", clevel: 9, shuffle: "shuffle", typesize: 4 },
          "float32",
          tiny,
        )
      ).flags & FLAG_MEMCPYED,
    ).toBe(FLAG_MEMCPYED);
    const noise = new Uint8Array(50000);
    let x = 12345;
    for (let i = 0; i < noise.length; i++) {
      x = (Math.imul(x, 1103515245) + 12345) >>> 0;
      noise[i] = x >>> 24;
    }
    for (const cname of ["blosclz", "lz4", "lz4hc", "snappy", "zlib", "zstd"]) {
      const h = await header(
        "blosc",
        { cname, clevel: 9, shuffle: "noshuffle", typesize: 1 },
        "uint8",
        noise,
      );
      expect(h.flags & FLAG_MEMCPYED, cname).toBe(FLAG_MEMCPYED);
      expect(h.cbytes, cname).toBe(noise.length + 16);
    }
  });
});

describe("v3 blosc metadata with numcodecs' integer shuffle codes", () => {
  it("reads them (some writers put them in v3 metadata) and writes the names back", async () => {
    const { resolveCodec } = await import("@z/codecs");
    const { int32 } = await import("@z/metadata");
    const spec = { shape: [64], dataType: int32, fillValue: 0 };
    const codec = resolveCodec(
      {
        name: "blosc",
        configuration: { cname: "lz4", clevel: 5, shuffle: 2, typesize: 4, blocksize: 0 },
        mustUnderstand: true,
      },
      { spec, zarrFormat: 3 },
    )!;
    expect(codec.toJson().configuration.shuffle).toBe("bitshuffle");
  });
});
