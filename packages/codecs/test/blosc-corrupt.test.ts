import {
  BLOSC_CNAMES,
  type BloscCname,
  bloscCompress,
  bloscDecompress,
  DecodeError,
} from "@z/codecs";
import { describe, expect, it } from "vitest";

function sample(n: number, seed = 1): Uint8Array {
  const out = new Uint8Array(n);
  let x = seed;
  for (let i = 0; i < n; i++) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    out[i] = (i % 251 < 200 ? (i >> 4) & 0x3f : x >>> 24) & 0xff;
  }
  return out;
}

function setInt32(frame: Uint8Array, at: number, value: number): void {
  new DataView(frame.buffer, frame.byteOffset).setInt32(at, value, true);
}

function int32(frame: Uint8Array, at: number): number {
  return new DataView(frame.buffer, frame.byteOffset).getInt32(at, true);
}

async function decodeError(
  frame: Uint8Array,
  maxSize = 1 << 20,
  expectedSize?: number,
): Promise<DecodeError> {
  try {
    await bloscDecompress(frame, { maxSize, expectedSize });
  } catch (error) {
    expect(error).toBeInstanceOf(DecodeError);
    return error as DecodeError;
  }
  throw new Error("decoded a corrupt frame without an error");
}

const data = sample(20000);

async function frameOf(
  cname: BloscCname,
  shuffle: 0 | 1 | 2 = 1,
  typesize = 4,
  blocksize = 0,
): Promise<Uint8Array> {
  return (await bloscCompress(data, { cname, clevel: 5, shuffle, typesize, blocksize })).slice();
}

describe("blosc rejects bad headers", () => {
  it("rejects frames shorter than the header", async () => {
    for (let n = 0; n < 16; n++)
      expect((await decodeError(new Uint8Array(n))).message).toMatch(
        /cannot hold the 16-byte Blosc header/,
      );
  });

  it("rejects unknown versions, reserved flags, compressors and stream versions", async () => {
    const good = await frameOf("lz4");
    for (const version of [0, 1, 3, 4]) {
      const f = good.slice();
      f[0] = version;
      expect((await decodeError(f)).message).toMatch(/unsupported frame format version/);
    }
    const reserved = good.slice();
    reserved[2] |= 0x08;
    expect((await decodeError(reserved)).message).toMatch(/reserved bit 3/);
    for (const format of [5, 6, 7]) {
      const f = good.slice();
      f[2] = (f[2] & 0x1f) | (format << 5);
      expect((await decodeError(f)).message).toMatch(/unknown compressor format/);
    }
    const lzVersion = good.slice();
    lzVersion[1] = 2;
    expect((await decodeError(lzVersion)).message).toMatch(/unsupported lz4 stream version 2/);
  });

  it("rejects sizes beyond the bound before allocating", async () => {
    const good = await frameOf("zstd");
    expect((await decodeError(good, data.length - 1)).message).toMatch(
      /claims 20000 decoded bytes, more than the 19999 allowed/,
    );
    expect((await decodeError(good, 1 << 20, 19000)).message).toMatch(
      /decodes to 20000 bytes, but it must be 19000/,
    );
    // A 32-byte frame claiming 2 GiB: refused by the bound, without touching memory.
    const huge = good.slice(0, 32);
    setInt32(huge, 4, 0x7fffffef);
    setInt32(huge, 8, 0x7fffffef);
    setInt32(huge, 12, 32);
    const before = process.memoryUsage().arrayBuffers;
    expect((await decodeError(huge, 1 << 24)).message).toMatch(/more than the 16777216 allowed/);
    // Even when the bound allows it, the layout check fails before the output is allocated.
    expect((await decodeError(huge, 0x7fffffff)).message).toMatch(/stream 0 of block 0/);
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(64 << 20);
  });

  it("rejects inconsistent sizes", async () => {
    const good = await frameOf("blosclz");
    const cases: [number, number, RegExp][] = [
      [4, -5, /negative decoded size/],
      [8, 0, /block size 0/],
      [8, 20001, /block size 20001 in the header is not in 1..20000/],
      [12, 10, /smaller than the header/],
      [12, good.length + 1, /only \d+ are present; the chunk is truncated/],
    ];
    for (const [at, value, message] of cases) {
      const f = good.slice();
      setInt32(f, at, value);
      expect((await decodeError(f)).message).toMatch(message);
    }
    const typesize0 = good.slice();
    typesize0[3] = 0;
    expect((await decodeError(typesize0)).message).toMatch(/type size 0/);
  });

  it("rejects uncompressed frames whose size does not add up", async () => {
    const f = (
      await bloscCompress(data, { cname: "lz4", clevel: 0, shuffle: 1, typesize: 4 })
    ).slice();
    const cut = f.slice(0, f.length - 1);
    setInt32(cut, 12, cut.length);
    expect((await decodeError(cut)).message).toMatch(
      /uncompressed frame of 20000 bytes must be 20016 bytes long/,
    );
  });
});

describe("blosc rejects bad layouts", () => {
  it("rejects block offsets outside the data area", async () => {
    // zstd blocks are never split, so a forced block size is kept as it is.
    const good = await frameOf("zstd", 1, 4, 4096);
    const nblocks = Math.ceil(data.length / 4096);
    for (const bad of [0, 15, 16 + 4 * nblocks - 1, good.length - 3, good.length + 100, -1]) {
      const f = good.slice();
      setInt32(f, 16 + 4 * (nblocks - 1), bad);
      expect((await decodeError(f)).message).toMatch(
        /block 4 starts at byte -?\d+, outside the data area/,
      );
    }
  });

  it("rejects stream sizes past the end of the frame", async () => {
    const good = await frameOf("snappy", 1, 4, 4096);
    const start = int32(good, 16);
    for (const bad of [-1, good.length, 0x7fffffff]) {
      const f = good.slice();
      setInt32(f, start, bad);
      expect((await decodeError(f)).message).toMatch(/stream 0 of block 0 claims -?\d+ bytes/);
    }
  });

  it("rejects an offset table larger than the frame", async () => {
    const good = await frameOf("lz4");
    const f = good.slice(0, 40);
    setInt32(f, 8, 128);
    setInt32(f, 12, 40);
    expect((await decodeError(f)).message).toMatch(/157 blocks need a 628-byte offset table/);
  });

  it("rejects every truncation, with or without a consistent header", async () => {
    for (const cname of BLOSC_CNAMES) {
      const good = await frameOf(cname, 2, 4, 2048);
      for (let n = 0; n < good.length; n += Math.max(1, Math.floor(good.length / 97))) {
        const cut = good.slice(0, n);
        await decodeError(cut);
        if (n >= 16) {
          setInt32(cut, 12, n);
          await decodeError(cut);
        }
      }
    }
  });
});

describe("blosc rejects bad streams", () => {
  // One block of two streams (one for zstd, which c-blosc never splits). A single snappy stream
  // spanning the whole buffer never fits c-blosc's output budget, hence the type size 2.
  const oneBlock = (cname: BloscCname) =>
    bloscCompress(data, { cname, clevel: 5, shuffle: 0, typesize: 2, blocksize: data.length });

  it("rejects streams that decode to the wrong length", async () => {
    for (const cname of BLOSC_CNAMES) {
      // Claiming another decoded size makes every stream of the block the wrong length.
      const good = (await oneBlock(cname)).slice();
      for (const claimed of [data.length - 2, data.length + 2, data.length * 2]) {
        const f = good.slice();
        setInt32(f, 4, claimed);
        setInt32(f, 8, claimed);
        const error = await decodeError(f, 1 << 20);
        expect(error.message, `${cname} claiming ${claimed}`).toMatch(
          /corrupt (blosclz|lz4|snappy|zlib|zstd) stream/,
        );
      }
    }
  });

  it("never crashes on random corruption: a DecodeError or the right number of bytes", async () => {
    let seed = 42;
    const next = () => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed;
    };
    for (const cname of BLOSC_CNAMES) {
      for (const [shuffle, typesize, blocksize] of [
        [0, 2, 0],
        [1, 4, 4096],
        [2, 8, 0],
      ] as const) {
        const good = await frameOf(cname, shuffle, typesize, blocksize);
        const dataStart = 16 + 4 * Math.ceil(data.length / int32(good, 8));
        let errors = 0;
        for (let trial = 0; trial < 150; trial++) {
          const f = good.slice();
          const flips = 1 + (next() % 4);
          for (let k = 0; k < flips; k++)
            f[dataStart + (next() % (f.length - dataStart))] ^= 1 + (next() % 255);
          try {
            const out = await bloscDecompress(f, {
              maxSize: data.length,
              expectedSize: data.length,
            });
            expect(out.length).toBe(data.length);
          } catch (error) {
            if (!(error instanceof DecodeError)) throw error;
            errors++;
          }
        }
        // Corruption is mostly detected (Blosc has no checksum, so not always).
        expect(errors, `${cname} shuffle ${shuffle}`).toBeGreaterThan(0);
      }
    }
  });

  it("rejects corrupt streams of every compressor with a message naming it", async () => {
    for (const cname of BLOSC_CNAMES) {
      const good = (await oneBlock(cname)).slice();
      const stream = int32(good, 16) + 4;
      // Garbage in place of the stream's first bytes.
      const f = good.slice();
      f.fill(0xff, stream, stream + 12);
      const error = await decodeError(f);
      expect(error.message).toMatch(
        new RegExp(`corrupt ${cname === "lz4hc" ? "lz4" : cname} stream`),
      );
    }
  });
});
