// Stores in Node (zarrita's FileSystemStore, fs reads) hand chunks over as Buffers, whose `slice`
// is a view. Decoding must copy them before it aligns or swaps, or it throws on a misaligned
// offset and swaps the caller's bytes in place.
import { float64, int32, uint16 } from "@z/metadata";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

describe("numeric decode of Node Buffers", () => {
  const types = [
    { type: int32, size: 4, read: (v: DataView, o: number, le: boolean) => v.getInt32(o, le) },
    { type: uint16, size: 2, read: (v: DataView, o: number, le: boolean) => v.getUint16(o, le) },
    { type: float64, size: 8, read: (v: DataView, o: number, le: boolean) => v.getFloat64(o, le) },
  ];
  for (const { type, size, read } of types)
    it(`${type.name}: any offset, either byte order, and the Buffer is left as it was`, () => {
      fc.assert(
        fc.property(
          fc.integer({ min: 0, max: 7 }),
          fc.integer({ min: 0, max: 9 }),
          fc.boolean(),
          fc.uint8Array({ minLength: 80, maxLength: 80 }),
          (offset, length, little, random) => {
            const pool = Buffer.from(random);
            const bytes = pool.subarray(offset, offset + length * size);
            const before = Buffer.from(bytes);
            const values = type.decode(bytes, length, little ? "little" : "big");
            const view = new DataView(before.buffer, before.byteOffset, before.length);
            const expected = Array.from({ length }, (_, i) => read(view, i * size, little));
            expect(Array.from(values as ArrayLike<number>)).toEqual(expected);
            expect(Buffer.compare(bytes, before)).toBe(0);
          },
        ),
        { numRuns: 200 },
      );
    });
});
