import { encode as msgpackEncode } from "@msgpack/msgpack";
import fc from "fast-check";
import { encode as flexEncode } from "flatbuffers/mjs/flexbuffers.js";
import { describe, expect, it } from "vitest";
import { decodeFlexbuffer } from "../src/format/flexbuffers.js";
import { decodeMsgpack } from "../src/format/msgpack.js";

/*
 * Snapshot metadata values: FlexBuffers (spec version 2) and MessagePack (spec version 1)
 * against the reference encoders, and arbitrary bytes that only ever fail through `fail`.
 */

class Refused extends Error {}
const fail = (reason: string): never => {
  throw new Refused(reason);
};

/** Integers past 2^53 come back as BigInt, exact; JSON holds them as the nearest double. */
const asJson = (decoded: unknown): unknown =>
  JSON.parse(JSON.stringify(decoded, (_k, v) => (typeof v === "bigint" ? Number(v) : v)));

/** Whether every integer in a value fits an int64 (the reference encoders wrap larger ones). */
const fitsInt64 = (v: unknown): boolean =>
  typeof v === "number"
    ? !Number.isInteger(v) || Math.abs(v) < 2 ** 63
    : typeof v === "object" && v !== null
      ? Object.values(v).every(fitsInt64)
      : true;

/** JSON values as both formats keep them (-0 is written as the integer 0). */
const json = fc
  .jsonValue({ maxDepth: 4 })
  .map((v) => JSON.parse(JSON.stringify(v)) as unknown)
  .filter(fitsInt64);

type Format = [
  string,
  (value: unknown) => Uint8Array,
  (bytes: Uint8Array, fail: (reason: string) => never) => unknown,
];
const formats: Format[] = [
  ["FlexBuffers", (v) => flexEncode(v), decodeFlexbuffer],
  ["MessagePack", (v) => msgpackEncode(v), decodeMsgpack],
];

describe.each(formats)("%s values", (_name, encode, decode) => {
  it("decode what the reference encoder writes", () => {
    fc.assert(
      fc.property(json, (value) => {
        expect(asJson(decode(encode(value), fail))).toEqual(value);
      }),
      { numRuns: 300 },
    );
  });

  it("refuse arbitrary and mutated bytes only through the caller's error", () => {
    const encoded = fc.tuple(json, fc.nat(), fc.integer({ min: 0, max: 255 })).map(([v, at, b]) => {
      const bytes = encode(v).slice();
      bytes[at % bytes.length] = b;
      return bytes;
    });
    fc.assert(
      fc.property(fc.oneof(fc.uint8Array({ maxLength: 64 }), encoded), (bytes) => {
        try {
          decode(bytes, fail);
        } catch (error) {
          if (!(error instanceof Refused)) throw error;
        }
      }),
      { numRuns: 3000 },
    );
  });
});

describe("FlexBuffers values sharing children", () => {
  /** 2^levels leaves in a few bytes: each level's vector points twice at the level below. */
  function doubling(levels: number): Uint8Array {
    const out: number[] = [2, 7, 8, 4, 4]; // a vector of two ints (data at byte 1)
    let child = 1;
    for (let level = 0; level < levels; level++) {
      const start = out.length + 1;
      out.push(2, start - child, start + 1 - child, 40, 40);
      child = start;
    }
    const root = out.length;
    out.push(root - child, 40, 1);
    return Uint8Array.from(out);
  }

  it("decode when small, and stop at the value budget when exponential", () => {
    expect(decodeFlexbuffer(doubling(2), fail)).toEqual([
      [
        [7, 8],
        [7, 8],
      ],
      [
        [7, 8],
        [7, 8],
      ],
    ]);
    expect(() => decodeFlexbuffer(doubling(40), fail)).toThrow(/more than a million values/);
  });
});
