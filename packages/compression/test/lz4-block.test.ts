import { describe, expect, it } from "vitest";
import { DecompressionError } from "../src/errors.js";
import {
  lz4CompressBlock,
  lz4CompressBound,
  lz4CompressWasm,
  lz4DecompressBlock,
  lz4hcCompressBlock,
} from "../src/lz4.js";
import { noise } from "./samples.js";

function compress(data: Uint8Array): Uint8Array {
  const dst = new Uint8Array(lz4CompressBound(data.length));
  const n = lz4CompressBlock(data, dst, 1);
  return dst.subarray(0, n);
}

function compressHc(data: Uint8Array, level: number): Uint8Array {
  const dst = new Uint8Array(lz4CompressBound(data.length));
  return dst.subarray(0, lz4hcCompressBlock(data, dst, level));
}

/** Compressible bytes: short runs and repeats. */
function repetitive(n: number): Uint8Array {
  return Uint8Array.from({ length: n }, (_, i) => ((i >> 5) % 17) * ((i >> 11) % 3));
}

// Round trips and corrupt streams of the block decoder are properties in lz-family.test.ts.
describe("lz4 block decoding", () => {
  it("rejects matches before the start of the data", () => {
    // One sequence: 1 literal, then a match 2 bytes back (only 1 byte exists).
    expect(() =>
      lz4DecompressBlock(Uint8Array.from([0x10, 65, 2, 0, 0x00]), new Uint8Array(10)),
    ).toThrow(/before the start/);
    expect(() => lz4DecompressBlock(Uint8Array.from([0x10, 65, 0, 0]), new Uint8Array(10))).toThrow(
      /before the start/,
    );
  });

  it("rejects empty blocks, blocks that end with a match, and truncation (or decodes less)", () => {
    const dst = new Uint8Array(32);
    expect(() => lz4DecompressBlock(new Uint8Array(0), dst)).toThrow(DecompressionError);
    // 1 literal, then a match of 4 from 1 back, and nothing after: not a valid last sequence.
    expect(() => lz4DecompressBlock(Uint8Array.from([0x10, 65, 1, 0]), dst)).toThrow(
      /ends inside a sequence/,
    );
    const block = compress(new Uint8Array(100).fill(7));
    // A block cut right after some literals is a valid, shorter block.
    for (let cut = 0; cut < block.length; cut++) {
      let decoded: number | undefined;
      try {
        decoded = lz4DecompressBlock(block.subarray(0, cut), new Uint8Array(100));
      } catch (error) {
        expect(error).toBeInstanceOf(DecompressionError);
      }
      if (decoded !== undefined) expect(decoded).toBeLessThan(100);
    }
  });

  it("matches may reach back before the start into earlier output (linked frame blocks)", () => {
    const first = Uint8Array.from([1, 2, 3, 4, 5, 6, 7, 8]);
    // 0 literals, a match of 8 from 8 back, then an empty last sequence.
    const linked = Uint8Array.from([0x04, 8, 0, 0x00]);
    const dst = new Uint8Array(16);
    dst.set(first);
    expect(lz4DecompressBlock(linked, dst, 8)).toBe(16);
    expect([...dst.subarray(8)]).toEqual([...first]);
  });
});

describe("lz4 block compression", () => {
  it("LZ4_compress_fast and LZ4HC write blocks the decoder and numcodecs.js's liblz4 read back", async () => {
    const { default: LZ4 } = await import("numcodecs/lz4");
    const wasm = new LZ4(1);
    for (const data of [new Uint8Array(0), noise(1000), repetitive(70_000), repetitive(300_000)]) {
      for (const block of [
        compress(data),
        compressHc(data, 1),
        compressHc(data, 9),
        await lz4CompressWasm(data, 1),
      ]) {
        const out = new Uint8Array(data.length);
        expect(lz4DecompressBlock(block, out)).toBe(data.length);
        expect(Buffer.compare(out, data)).toBe(0);
        const framed = new Uint8Array(4 + block.length);
        new DataView(framed.buffer).setUint32(0, data.length, true);
        framed.set(block, 4);
        expect(Buffer.compare(await wasm.decode(framed), data)).toBe(0);
      }
    }
  });

  it("gives up (0) when the block does not fit the room it is given", () => {
    const data = noise(5000);
    expect(lz4CompressBlock(data, new Uint8Array(4000))).toBe(0);
    expect(lz4hcCompressBlock(data, new Uint8Array(4000), 9)).toBe(0);
    expect(lz4CompressBlock(data, new Uint8Array(lz4CompressBound(5000)))).toBeGreaterThan(5000);
  });
});
