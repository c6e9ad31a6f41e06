// LZ4 blocks, Snappy and BloscLZ: what the compressors write decodes back exactly, and corrupt streams give
// a DecompressionError or a bounded output, never a write outside the output buffer.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { blosclzCompress, blosclzDecompress } from "../src/blosclz.js";
import {
  lz4CompressBlock,
  lz4CompressBound,
  lz4DecompressBlock,
  lz4hcCompressBlock,
} from "../src/lz4.js";
import { snappyCompress, snappyDecompress, snappyMaxCompressedLength } from "../src/snappy.js";
import { decodeFramed, lzData } from "./samples.js";

const RUNS = Number(process.env.PROPERTY_RUNS ?? 200);

const dataArb = lzData(9000, 400);

type Codec = {
  compress(src: Uint8Array, dst: Uint8Array): number;
  decompress(src: Uint8Array, dst: Uint8Array): number;
  room(n: number): number;
};

const CODECS: Record<string, Codec> = {
  // The lz4 block decoder copies short literals and matches 8 bytes at a time, which may write a
  // few bytes past a copy's end inside the output: the margins check that none lands outside it.
  "lz4 (fast)": {
    compress: (src, dst) => lz4CompressBlock(src, dst, 1),
    decompress: (src, dst) => lz4DecompressBlock(src, dst),
    room: lz4CompressBound,
  },
  "lz4 (HC, level 9)": {
    compress: (src, dst) => lz4hcCompressBlock(src, dst, 9),
    decompress: (src, dst) => lz4DecompressBlock(src, dst),
    room: lz4CompressBound,
  },
  snappy: {
    compress: snappyCompress,
    decompress: snappyDecompress,
    room: snappyMaxCompressedLength,
  },
  "blosclz (level 5, split)": {
    compress: (src, dst) => blosclzCompress(src, dst, 5, true),
    decompress: blosclzDecompress,
    room: (n) => n + 66,
  },
  "blosclz (level 9, unsplit)": {
    compress: (src, dst) => blosclzCompress(src, dst, 9, false),
    decompress: blosclzDecompress,
    room: (n) => n + 66,
  },
};

for (const [name, codec] of Object.entries(CODECS)) {
  describe(name, () => {
    it("decodes what it writes exactly (or declines to compress, answering 0)", () => {
      fc.assert(
        fc.property(dataArb, (data) => {
          const room = new Uint8Array(codec.room(data.length));
          const n = codec.compress(data, room);
          if (n === 0) return;
          const { result, out, marginsIntact } = decodeFramed(
            codec.decompress,
            room.subarray(0, n),
            data.length,
          );
          expect(result).toBe(data.length);
          expect(Buffer.compare(out, data)).toBe(0);
          expect(marginsIntact).toBe(true);
        }),
        { numRuns: RUNS },
      );
    });

    it("corrupt streams: a DecompressionError or bounded output, nothing written outside it", () => {
      fc.assert(
        fc.property(
          dataArb,
          fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), {
            minLength: 1,
            maxLength: 4,
          }),
          fc.integer({ min: -8, max: 8 }),
          (data, flips, sizeChange) => {
            const room = new Uint8Array(codec.room(data.length));
            const n = codec.compress(data, room);
            if (n === 0) return;
            const stream = room.slice(0, n);
            for (const [at, value] of flips) stream[at % n] = value;
            const size = Math.max(0, data.length + sizeChange);
            const { result, marginsIntact } = decodeFramed(codec.decompress, stream, size);
            if (typeof result === "number") expect(result).toBeLessThanOrEqual(size);
            expect(marginsIntact).toBe(true);
          },
        ),
        { numRuns: RUNS },
      );
    });
  });
}

describe("snappy's format", () => {
  it("refuses to compress into less than its worst case, and checks the declared length", () => {
    const data = new Uint8Array(1000).fill(3);
    expect(snappyCompress(data, new Uint8Array(snappyMaxCompressedLength(1000) - 1))).toBe(0);
    const room = new Uint8Array(snappyMaxCompressedLength(1000));
    const n = snappyCompress(data, room);
    expect(() => snappyDecompress(room.subarray(0, n), new Uint8Array(999))).toThrow(
      /declares 1000 bytes/,
    );
  });
});
