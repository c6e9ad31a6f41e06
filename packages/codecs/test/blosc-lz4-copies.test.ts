import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { lz4Compress, lz4CompressBound, lz4Decompress } from "../src/blosc/lz4.js";
import { DecodeError } from "../src/errors.js";

/*
 * The lz4 block decoder copies short literals and matches 8 bytes at a time, which may write a
 * few bytes past a copy's end inside the stream's output. These properties check the output
 * against the input it came from, and that nothing outside `[dstStart, dstEnd)` is ever
 * written, for valid and corrupted streams alike.
 */

const RUNS = Number(process.env.PROPERTY_RUNS ?? 300);
const MARGIN = 11;
const SENTINEL = 0xab;

/** Data made of random literals and repeats at short and long distances (overlapping ones too). */
const dataArb = fc
  .array(
    fc.oneof(
      fc.uint8Array({ minLength: 0, maxLength: 40 }).map((bytes) => ({ bytes })),
      fc.record({
        distance: fc.integer({ min: 1, max: 300 }),
        length: fc.integer({ min: 1, max: 150 }),
      }),
    ),
    { minLength: 1, maxLength: 60 },
  )
  .map((pieces) => {
    const out: number[] = [];
    for (const piece of pieces) {
      if ("bytes" in piece) out.push(...piece.bytes);
      else if (out.length > 0) {
        const d = Math.min(piece.distance, out.length);
        for (let i = 0; i < piece.length; i++) out.push(out[out.length - d]);
      }
    }
    return Uint8Array.from(out);
  });

function compress(data: Uint8Array): Uint8Array {
  const dst = new Uint8Array(lz4CompressBound(data.length));
  const n = lz4Compress(data, 0, data.length, dst, 0, dst.length, 1);
  return dst.subarray(0, n);
}

/** Decodes into the middle of a buffer whose margins hold a sentinel; returns both parts. */
function decodeFramed(stream: Uint8Array, size: number) {
  const dst = new Uint8Array(size + 2 * MARGIN).fill(SENTINEL);
  let result: number | DecodeError;
  try {
    result = lz4Decompress(stream, 0, stream.length, dst, MARGIN, MARGIN + size);
  } catch (error) {
    if (!(error instanceof DecodeError)) throw error;
    result = error;
  }
  const margins = [...dst.subarray(0, MARGIN), ...dst.subarray(MARGIN + size)];
  return { result, out: dst.subarray(MARGIN, MARGIN + size), margins };
}

describe("lz4 block decoding, 8 bytes at a time", () => {
  it("gives back the input and writes nothing outside its output", () => {
    fc.assert(
      fc.property(dataArb, (data) => {
        const { result, out, margins } = decodeFramed(compress(data), data.length);
        expect(result).toBe(data.length);
        expect(out).toEqual(data);
        expect(margins.every((b) => b === SENTINEL)).toBe(true);
      }),
      { numRuns: RUNS },
    );
  });

  it("corrupted streams: a DecodeError or some output, never a write outside it", () => {
    fc.assert(
      fc.property(
        dataArb,
        fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), {
          minLength: 1,
          maxLength: 4,
        }),
        fc.integer({ min: -8, max: 8 }),
        (data, flips, sizeChange) => {
          const stream = compress(data).slice();
          if (stream.length === 0) return;
          for (const [at, value] of flips) stream[at % stream.length] = value;
          const size = Math.max(0, data.length + sizeChange);
          const { result, margins } = decodeFramed(stream, size);
          if (typeof result === "number") expect(result).toBeLessThanOrEqual(size);
          expect(margins.every((b) => b === SENTINEL)).toBe(true);
        },
      ),
      { numRuns: RUNS },
    );
  });
});
