// Test data and checks shared by the algorithm tests.
import fc from "fast-check";
import { expect } from "vitest";

export { noise, sameBytes as same } from "@z/test-utils";

import { DecompressionError } from "../src/errors.js";

/** Runs `decode` on bad data and returns the DecompressionError it must throw. */
export async function rejection(decode: () => unknown): Promise<DecompressionError> {
  try {
    await decode();
  } catch (error) {
    expect(error).toBeInstanceOf(DecompressionError);
    return error as DecompressionError;
  }
  throw new Error("decoding bad input succeeded");
}

/**
 * Data made of random literals and repeats at distances up to `maxDistance` (overlapping ones
 * too): what LZ-family compressors find matches in.
 */
export function lzData(maxDistance: number, maxRepeat: number): fc.Arbitrary<Uint8Array> {
  return fc
    .array(
      fc.oneof(
        fc.uint8Array({ maxLength: 40 }).map((bytes) => ({ bytes })),
        fc.record({
          distance: fc.integer({ min: 1, max: maxDistance }),
          length: fc.integer({ min: 1, max: maxRepeat }),
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
}

const MARGIN = 11;
const SENTINEL = 0xab;

/**
 * Decodes `stream` with `decode` into the middle of a buffer whose margins hold a sentinel:
 * what it returned or the DecompressionError it threw, its output, and whether the margins
 * are untouched.
 */
export function decodeFramed(
  decode: (src: Uint8Array, dst: Uint8Array) => number,
  stream: Uint8Array,
  size: number,
): { result: number | DecompressionError; out: Uint8Array; marginsIntact: boolean } {
  const dst = new Uint8Array(size + 2 * MARGIN).fill(SENTINEL);
  let result: number | DecompressionError;
  try {
    result = decode(stream, dst.subarray(MARGIN, MARGIN + size));
  } catch (error) {
    if (!(error instanceof DecompressionError)) throw error;
    result = error;
  }
  const margins = [...dst.subarray(0, MARGIN), ...dst.subarray(MARGIN + size)];
  return {
    result,
    out: dst.subarray(MARGIN, MARGIN + size),
    marginsIntact: margins.every((b) => b === SENTINEL),
  };
}
