// Behaviour of the compressors and checksum codecs: round trips, layouts, and what they do with
// bad input (truncated, corrupt, oversized): always a DecodeError (or ChecksumError), never a
// crash, a hang, garbage of the wrong size or an allocation beyond the bound.
import { gunzipSync, inflateSync, crc32 as nodeCrc32 } from "node:zlib";
import {
  adler32,
  type BytesToBytesCodec,
  Checksum32Codec,
  ChecksumError,
  CodecConfigError,
  CodecPipeline,
  Crc32cCodec,
  crc32,
  DecodeError,
  GzipCodec,
  hasCodec,
  Lz4Codec,
  loadCodecs,
  resolveCodec,
  ZlibCodec,
  ZstdCodec,
} from "@z/codecs";
import { gzipCompressPython } from "@z/compression/deflate-sync";
import { withContentSize, type ZstdFrame, zstdLayout } from "@z/compression/zstd";
import { resolveDataTypeV3 } from "@z/metadata";
import { flipped, noise, rejectsOrSame, sameBytes, spreadPositions } from "@z/test-utils";
import { ungzip } from "pako";
import { describe, expect, it } from "vitest";

/** Smooth float32 data (a sine), the kind compressors see in arrays. */
function smooth(n: number, seed = 1): Uint8Array {
  const f = new Float32Array(Math.ceil(n / 4));
  for (let i = 0; i < f.length; i++) f[i] = Math.sin((i + seed) / 300) * 100;
  return new Uint8Array(f.buffer, 0, n);
}

const SIZES = [0, 1, 100, 4095, 70_000, 300_000];

/** Runs `decode` and returns what it threw (a test fails if it returned instead). */
async function decodeError(decode: () => unknown): Promise<Error> {
  try {
    await decode();
  } catch (error) {
    expect(error).toBeInstanceOf(DecodeError);
    return error as Error;
  }
  throw new Error("decoding bad input succeeded");
}

/**
 * Decodes `bytes`, which may be corrupt: it must throw a DecodeError, or (for formats without a
 * checksum) return exactly `size` bytes.
 */
async function decodesOrRejects(
  codec: BytesToBytesCodec,
  bytes: Uint8Array,
  size: number,
): Promise<"error" | "ok"> {
  try {
    const out = await codec.decode(bytes, { expectedSize: size, maxSize: size });
    expect(out.length).toBe(size);
    return "ok";
  } catch (error) {
    expect(error).toBeInstanceOf(DecodeError);
    return "error";
  }
}

describe("gzip", () => {
  it("round-trips every level and size, and node:zlib reads what it writes", async () => {
    for (const level of [-1, 0, 1, 5, 9]) {
      const codec = new GzipCodec(level);
      for (const n of SIZES) {
        const data = smooth(n);
        const encoded = await codec.encode(data);
        expect(sameBytes(await codec.decode(encoded, { expectedSize: n, maxSize: n }), data)).toBe(
          true,
        );
        expect(sameBytes(await codec.decode(encoded, { maxSize: n + 10 }), data)).toBe(true);
        expect(sameBytes(gunzipSync(encoded), data)).toBe(true);
      }
    }
  });

  it("writes with node:zlib in Node: a valid member with the CRC-32 + size trailer", async () => {
    const data = smooth(50_000);
    for (const level of [-1, 0, 1, 5, 9]) {
      const encoded = await new GzipCodec(level).encode(data);
      expect(sameBytes(encoded, gzipCompressPython(data, level))).toBe(false);
      expect([...encoded.subarray(0, 3)]).toEqual([0x1f, 0x8b, 8]);
      const trailer = new DataView(encoded.buffer, encoded.byteOffset + encoded.length - 8);
      expect(trailer.getUint32(0, true)).toBe(nodeCrc32(data));
      expect(trailer.getUint32(4, true)).toBe(data.length);
      // pako (what browsers decode with) reads it too.
      expect(sameBytes(ungzip(encoded), data)).toBe(true);
    }
  });

  it("takes its level from the configuration, with zarr-python's and numcodecs' defaults", () => {
    expect(GzipCodec.fromConfig({ level: 9 }).toJson()).toEqual({
      name: "gzip",
      configuration: { level: 9 },
      mustUnderstand: true,
    });
    expect(GzipCodec.fromConfig({}).level).toBe(5);
    expect(GzipCodec.fromConfig({}, "numcodecs.gzip").level).toBe(1);
    expect(() => GzipCodec.fromConfig({ level: 10 })).toThrow(CodecConfigError);
    expect(() => GzipCodec.fromConfig({ level: "5" })).toThrow(CodecConfigError);
  });
});

describe("zlib", () => {
  it("round-trips every level and size, and node:zlib reads what it writes", async () => {
    for (const level of [-1, 0, 1, 6, 9]) {
      const codec = new ZlibCodec(level);
      for (const n of SIZES) {
        const data = smooth(n);
        const encoded = await codec.encode(data);
        expect(sameBytes(await codec.decode(encoded, { expectedSize: n, maxSize: n }), data)).toBe(
          true,
        );
        expect(sameBytes(inflateSync(encoded), data)).toBe(true);
      }
    }
  });

  it("validates its configuration", () => {
    expect(ZlibCodec.fromConfig({}).level).toBe(1);
    expect(ZlibCodec.fromConfig({ level: 9 }, "zlib").toJson()).toEqual({
      name: "zlib",
      configuration: { level: 9 },
      mustUnderstand: true,
    });
    expect(() => ZlibCodec.fromConfig({ level: -2 })).toThrow(CodecConfigError);
  });
});

/** A zstd frame written by hand: raw and RLE blocks, no content size, window 2^windowLog. */
function handmadeFrame(
  blocks: ({ raw: Uint8Array } | { rle: number; size: number })[],
  windowLog = 17,
): Uint8Array {
  const parts: number[] = [0x28, 0xb5, 0x2f, 0xfd, 0x00, (windowLog - 10) << 3];
  blocks.forEach((block, i) => {
    const last = i === blocks.length - 1 ? 1 : 0;
    const [type, size] = "raw" in block ? [0, block.raw.length] : [1, block.size];
    const header = last | (type << 1) | (size << 3);
    parts.push(header & 0xff, (header >> 8) & 0xff, header >> 16);
    if ("raw" in block) parts.push(...block.raw);
    else parts.push(block.rle);
  });
  return Uint8Array.from(parts);
}

/**
 * The same frame without its content size: numcodecs.js writes single-segment frames, which must
 * declare it; this rewrites the header with a window descriptor instead.
 */
function withoutContentSize(frame: Uint8Array): Uint8Array {
  const descriptor = frame[4];
  expect(descriptor & 0x20).toBe(0x20); // single segment
  const fcsBytes = [1, 2, 4, 8][descriptor >> 6];
  const view = new DataView(frame.buffer, frame.byteOffset);
  const size =
    fcsBytes === 1
      ? frame[5]
      : fcsBytes === 2
        ? view.getUint16(5, true) + 256
        : view.getUint32(5, true);
  const windowLog = Math.max(10, Math.ceil(Math.log2(Math.max(size, 1))));
  return Uint8Array.from([
    ...frame.subarray(0, 4),
    descriptor & 0x04, // keep the checksum flag only
    (windowLog - 10) << 3,
    ...frame.subarray(5 + fcsBytes),
  ]);
}

describe("zstd", () => {
  it("round-trips levels, checksums and sizes; equal data gives equal bytes", async () => {
    for (const level of [-1, 0, 1, 3, 10, 22, 100]) {
      for (const checksum of [false, true]) {
        const codec = new ZstdCodec(level, checksum);
        for (const n of SIZES) {
          const data = smooth(n);
          const encoded = await codec.encode(data);
          expect(encoded[4] & 0x04).toBe(checksum ? 0x04 : 0);
          expect(
            sameBytes(await codec.decode(encoded, { expectedSize: n, maxSize: n }), data),
          ).toBe(true);
          expect(sameBytes(await codec.decode(encoded, { maxSize: n + 10 }), data)).toBe(true);
        }
      }
    }
    const data = noise(10_000);
    expect(
      sameBytes(await new ZstdCodec(3).encode(data), await new ZstdCodec(3).encode(data)),
    ).toBe(true);
  });

  it("fails fast when the declared content size exceeds the bound", async () => {
    const codec = new ZstdCodec();
    const data = smooth(100_000);
    const encoded = await codec.encode(data);
    const error = await decodeError(() =>
      codec.decode(encoded, { expectedSize: 99_999, maxSize: 99_999 }),
    );
    expect(error.message).toMatch(/declares 100000 bytes/);
    await decodeError(() => codec.decode(encoded, { maxSize: 50_000 }));
    // A hostile header declaring 2^40 bytes (8-byte field) is refused before any allocation.
    const huge = Uint8Array.from([
      0x28, 0xb5, 0x2f, 0xfd, 0xc0, 0x58, 0, 0, 0, 0, 0, 1, 0, 0, 0x01, 0, 0,
    ]);
    expect((await decodeError(() => codec.decode(huge, { maxSize: 1 << 30 }))).message).toMatch(
      /declares 1099511627776/,
    );
  });

  it("rejects a frame whose content is larger or smaller than its declared size", async () => {
    const codec = new ZstdCodec(3);
    const data = smooth(1 << 20);
    const encoded = await codec.encode(data);
    expect(encoded[4] >> 6).toBe(2); // a 4-byte content size at offset 5
    const lying = Uint8Array.from(encoded);
    new DataView(lying.buffer).setUint32(5, 5000, true);
    // In a single-segment frame the declared size is also the window: the block headers already
    // break the rule.
    expect((await decodeError(() => codec.decode(lying, { maxSize: 1 << 30 }))).message).toMatch(
      /exceeds/,
    );
    new DataView(lying.buffer).setUint32(5, (1 << 20) + 5000, true);
    await decodeError(() => codec.decode(lying, { maxSize: 1 << 30 }));
    // With a separate window, libzstd decodes into exactly the declared 5000 bytes and stops there.
    const windowed = withoutContentSize(encoded);
    const [frame] = (zstdLayout(windowed) as { frames: ZstdFrame[] }).frames;
    for (const declared of [5000, (1 << 20) - 1, (1 << 20) + 1]) {
      const error = await decodeError(() =>
        codec.decode(withContentSize(windowed, frame, declared), { maxSize: 1 << 30 }),
      );
      expect(error.message).toMatch(/too small|corrupt/i);
    }
    expect(
      sameBytes(
        await codec.decode(withContentSize(windowed, frame, 1 << 20), { maxSize: 1 << 30 }),
        data,
      ),
    ).toBe(true);
  });

  describe("frames without a content size", () => {
    const codec = new ZstdCodec();

    it("decodes them when their blocks prove they fit", async () => {
      const raw = noise(1000);
      const frame = handmadeFrame([{ raw }, { rle: 7, size: 500 }]);
      const expected = Buffer.concat([raw, new Uint8Array(500).fill(7)]);
      expect(sameBytes(await codec.decode(frame, { maxSize: 1500 }), expected)).toBe(true);
      expect(
        sameBytes(await codec.decode(frame, { expectedSize: 1500, maxSize: 1500 }), expected),
      ).toBe(true);
      await decodeError(() => codec.decode(frame, { maxSize: 1499 }));
    });

    it("refuses a bomb (8 MiB of RLE blocks in 200 bytes) against a smaller bound without decoding it", async () => {
      const blocks = Array.from({ length: 64 }, () => ({ rle: 1, size: 128 * 1024 }));
      const bomb = handmadeFrame(blocks);
      expect(bomb.length).toBeLessThan(300);
      const error = await decodeError(() => codec.decode(bomb, { maxSize: 1 << 20 }));
      expect(error.message).toMatch(/does not declare its content size/);
      // The exact size known: the header is made to declare it, and libzstd holds to it.
      await decodeError(() => codec.decode(bomb, { expectedSize: 1 << 20, maxSize: 1 << 20 }));
      const out = await codec.decode(bomb, { expectedSize: 8 << 20, maxSize: 8 << 20 });
      expect(out.length).toBe(8 << 20);
      expect(out.every((b) => b === 1)).toBe(true);
    });

    it("decodes compressed blocks without a content size, bounded by the exact size or the block bound", async () => {
      for (const checksum of [false, true]) {
        const data = smooth(1 << 20);
        const stripped = withoutContentSize(await new ZstdCodec(3, checksum).encode(data));
        const n = data.length;
        expect(sameBytes(await codec.decode(stripped, { expectedSize: n, maxSize: n }), data)).toBe(
          true,
        );
        // The block bound depends on how the encoder split the blocks (native libzstd 1.5.6+
        // splits them smaller than 128 KiB), so it is read from the frame.
        const [frame] = (zstdLayout(stripped) as { frames: ZstdFrame[] }).frames;
        expect(frame.blockBound).toBeGreaterThanOrEqual(n);
        expect(sameBytes(await codec.decode(stripped, { maxSize: frame.blockBound }), data)).toBe(
          true,
        );
        await decodeError(() => codec.decode(stripped, { expectedSize: n - 1, maxSize: n - 1 }));
        await decodeError(() => codec.decode(stripped, { maxSize: n - 1 }));
      }
    });
  });

  it("decodes concatenated frames and skips skippable frames", async () => {
    const a = smooth(50_000);
    const b = noise(20_000);
    const skippable = Uint8Array.from([0x50, 0x2a, 0x4d, 0x18, 3, 0, 0, 0, 9, 9, 9]);
    const joined = Buffer.concat([
      await new ZstdCodec(1).encode(a),
      skippable,
      await new ZstdCodec(5).encode(b),
    ]);
    const both = Buffer.concat([a, b]);
    expect(
      sameBytes(
        await new ZstdCodec().decode(joined, { expectedSize: both.length, maxSize: both.length }),
        both,
      ),
    ).toBe(true);
    await decodeError(() => new ZstdCodec().decode(joined, { maxSize: both.length - 1 }));
  });

  it("rejects truncation, trailing garbage, reserved bits and corruption", async () => {
    const codec = new ZstdCodec(3, true);
    const data = smooth(200_000);
    const encoded = await codec.encode(data);
    const n = data.length;
    for (const cut of [
      0,
      3,
      4,
      5,
      8,
      9,
      12,
      100,
      encoded.length - 5,
      encoded.length - 4,
      encoded.length - 1,
    ]) {
      await decodeError(() =>
        codec.decode(encoded.subarray(0, cut), { expectedSize: n, maxSize: n }),
      );
      await decodeError(() => codec.decode(encoded.subarray(0, cut), { maxSize: 2 * n }));
    }
    await decodeError(() =>
      codec.decode(Buffer.concat([encoded, Buffer.from("xy")]), { maxSize: 2 * n }),
    );
    await decodeError(() => codec.decode(flipped(encoded, 4, 0x08), { maxSize: 2 * n }));
    // With a checksum, corruption anywhere is caught (the descriptor's unused bit 4 is ignored by design).
    let rejected = 0;
    for (const at of spreadPositions(encoded.length)) {
      const bad = flipped(encoded, at, 0x01);
      if (
        await rejectsOrSame(
          () => codec.decode(bad, { expectedSize: n, maxSize: n }),
          data,
          DecodeError,
        )
      )
        rejected++;
    }
    expect(rejected).toBeGreaterThan(50);
    // Without one, zstd cannot always tell: either an error or data of the right size.
    const plain = await new ZstdCodec(3).encode(data);
    for (const at of spreadPositions(plain.length))
      await decodesOrRejects(new ZstdCodec(), flipped(plain, at), n);
  });

  it("takes zarr-python's configuration", () => {
    expect(ZstdCodec.fromConfig({ level: 3, checksum: true }).toJson()).toEqual({
      name: "zstd",
      configuration: { level: 3, checksum: true },
      mustUnderstand: true,
    });
    expect(ZstdCodec.fromConfig({}, "numcodecs.zstd").level).toBe(1);
    // numcodecs 0.11 (Debian's zarr 2) rejects a "checksum" key, so a false one is left out.
    expect(ZstdCodec.fromConfig({ level: 5 }, "numcodecs.zstd").toJson().configuration).toEqual({
      level: 5,
    });
    expect(
      ZstdCodec.fromConfig({ checksum: true }, "numcodecs.zstd").toJson().configuration,
    ).toEqual({
      level: 1,
      checksum: true,
    });
    expect(ZstdCodec.fromConfig({}).level).toBe(0);
    expect(() => ZstdCodec.fromConfig({ checksum: 1 })).toThrow(CodecConfigError);
    expect(() => ZstdCodec.fromConfig({ level: 1.5 })).toThrow(CodecConfigError);
  });
});

describe("numcodecs.lz4", () => {
  const codec = new Lz4Codec();

  it("round-trips accelerations and sizes; the JS block decoder agrees with liblz4", async () => {
    const { default: LZ4 } = await import("numcodecs/lz4");
    for (const acceleration of [-1, 0, 1, 10, 1_000_000]) {
      const c = new Lz4Codec(acceleration);
      for (const n of SIZES) {
        for (const data of [smooth(n), noise(n)]) {
          const encoded = await c.encode(data);
          expect(new DataView(encoded.buffer, encoded.byteOffset).getUint32(0, true)).toBe(n);
          expect(sameBytes(await c.decode(encoded, { expectedSize: n, maxSize: n }), data)).toBe(
            true,
          );
          expect(sameBytes(await c.decode(encoded, { maxSize: n + 1 }), data)).toBe(true);
          if (n > 0) expect(sameBytes(await new LZ4().decode(encoded), data)).toBe(true);
        }
      }
    }
    // Long overlapping matches (runs) and long literal runs.
    const runs = Buffer.concat([
      new Uint8Array(100_000).fill(3),
      noise(70_000),
      Buffer.from("ab".repeat(40_000)),
    ]);
    const encoded = await codec.encode(runs);
    expect(sameBytes(await codec.decode(encoded, { maxSize: runs.length }), runs)).toBe(true);
  });

  it("checks the size header against the bound before allocating", async () => {
    const encoded = await codec.encode(smooth(10_000));
    const huge = Uint8Array.from(encoded);
    new DataView(huge.buffer).setUint32(0, 0xffffffff, true);
    expect((await decodeError(() => codec.decode(huge, { maxSize: 1 << 30 }))).message).toMatch(
      /4294967295/,
    );
    await decodeError(() => codec.decode(encoded, { expectedSize: 9_999, maxSize: 9_999 }));
    await decodeError(() => codec.decode(encoded, { maxSize: 9_999 }));
    // The header claims fewer bytes than the block holds: the decoder stops at the header's size.
    const short = Uint8Array.from(encoded);
    new DataView(short.buffer).setUint32(0, 5_000, true);
    expect((await decodeError(() => codec.decode(short, { maxSize: 1 << 20 }))).message).toMatch(
      /more than the 5000/,
    );
    const long = Uint8Array.from(encoded);
    new DataView(long.buffer).setUint32(0, 10_001, true);
    await decodeError(() => codec.decode(long, { maxSize: 1 << 20 }));
  });

  it("rejects every truncation, and corruption is an error or data of the right size", async () => {
    const data = smooth(30_000);
    const encoded = await codec.encode(data);
    for (let cut = 0; cut < encoded.length; cut += cut < 64 ? 1 : 97) {
      await decodeError(() => codec.decode(encoded.subarray(0, cut), { maxSize: data.length }));
    }
    for (const at of spreadPositions(encoded.length))
      await decodesOrRejects(codec, flipped(encoded, at), data.length);
    // Random garbage after a plausible header never crashes or overruns.
    for (let seed = 1; seed <= 200; seed++) {
      const garbage = noise(64 + seed, seed);
      garbage.set([0, 4, 0, 0]); // 1024 bytes
      await decodesOrRejects(codec, garbage, 1024);
    }
  });
});

describe("32-bit checksum codecs", () => {
  it("compute the published check values", () => {
    const digits = new TextEncoder().encode("123456789");
    expect(crc32(digits)).toBe(0xcbf43926);
    expect(adler32(new TextEncoder().encode("Wikipedia"))).toBe(0x11e60398);
    const data = noise(100_000);
    expect(crc32(data)).toBe(nodeCrc32(data));
    expect(crc32(data.subarray(5000), crc32(data.subarray(0, 5000)))).toBe(crc32(data));
    expect(adler32(data.subarray(5000), adler32(data.subarray(0, 5000)))).toBe(adler32(data));
  });

  it("place the checksum where numcodecs does, and detect corruption", () => {
    const data = smooth(1000);
    for (const kind of ["crc32", "crc32c", "adler32"] as const) {
      for (const location of ["start", "end", undefined] as const) {
        const codec = new Checksum32Codec(kind, location);
        const encoded = codec.encode(data);
        expect(encoded.length).toBe(codec.encodedSize(data.length));
        const where = codec.location === "start" ? 0 : data.length;
        expect(codec.location).toBe(location ?? (kind === "crc32c" ? "end" : "start"));
        const checksum = new DataView(encoded.buffer).getUint32(where, true);
        expect(checksum).toBe({ crc32, adler32, crc32c: undefined }[kind]?.(data) ?? checksum);
        expect(sameBytes(codec.decode(encoded), data)).toBe(true);
        for (const at of [0, 3, 4, 500, encoded.length - 1]) {
          expect(() => codec.decode(flipped(encoded, at, 0x01))).toThrow(ChecksumError);
        }
        expect(() => codec.decode(new Uint8Array(3))).toThrow(DecodeError);
      }
    }
    // numcodecs.crc32c lays chunks out like the v3 crc32c codec.
    expect(
      sameBytes(new Checksum32Codec("crc32c").encode(data), new Crc32cCodec().encode(data)),
    ).toBe(true);
  });

  it("validate their configuration", () => {
    expect(Checksum32Codec.fromConfig({ location: "end" }, "adler32").toJson()).toEqual({
      name: "numcodecs.adler32",
      configuration: { location: "end" },
      mustUnderstand: true,
    });
    expect(
      Checksum32Codec.fromConfig({ location: "start" }, "crc32").toJson().configuration,
    ).toEqual({});
    expect(Checksum32Codec.fromConfig({}, "crc32c").toJson().configuration).toEqual({});
    expect(() => Checksum32Codec.fromConfig({ location: "middle" }, "crc32")).toThrow(
      CodecConfigError,
    );
  });
});

describe("registration and the pipeline", () => {
  const names = [
    "gzip",
    "numcodecs.gzip",
    "numcodecs.zlib",
    "zlib",
    "zstd",
    "numcodecs.zstd",
    "numcodecs.lz4",
    "numcodecs.crc32",
    "numcodecs.crc32c",
    "numcodecs.adler32",
  ];

  it("registers every codec and runs each in a pipeline, bounded by the chunk size", async () => {
    const dataType = resolveDataTypeV3("float32");
    const spec = { shape: [64, 50], dataType, fillValue: 0 };
    const values = new Float32Array(3200).map((_, i) => Math.cos(i / 40));
    for (const name of names) expect(hasCodec(name)).toBe(true);
    // Registered to load on first use: built synchronously below, so loaded first.
    await loadCodecs(names);
    for (const name of names) {
      const codec = resolveCodec(
        { name, configuration: {}, mustUnderstand: true },
        { spec, zarrFormat: 3 },
      );
      expect(codec?.kind).toBe("bytes_to_bytes");
      const pipeline = CodecPipeline.create(
        [
          { name: "bytes", configuration: { endian: "little" }, mustUnderstand: true },
          { name, configuration: {}, mustUnderstand: true },
        ],
        spec,
        3,
      );
      const stored = await pipeline.encode({ data: values, shape: [64, 50], stride: [50, 1] });
      const chunk = await pipeline.decode(stored);
      expect(Array.from(chunk.data as Float32Array)).toEqual(Array.from(values));
      // The same bytes, one element short of the chunk: an error, not a short chunk.
      const smaller = CodecPipeline.create(
        [
          { name: "bytes", configuration: { endian: "little" }, mustUnderstand: true },
          { name, configuration: {}, mustUnderstand: true },
        ],
        { ...spec, shape: [64, 49] },
        3,
      );
      await decodeError(() => smaller.decode(stored));
    }
  });
});
