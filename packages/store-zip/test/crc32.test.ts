import { crc32 as nodeCrc32 } from "node:zlib";
import { patternBytes } from "@z/store-core/testing";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { crc32 } from "../src/crc32.js";

describe("crc32 (the JavaScript one browsers use)", () => {
  it("matches zlib's for known values, any alignment and length, and continues a running CRC", () => {
    expect(crc32(new TextEncoder().encode("123456789"))).toBe(0xcbf43926);
    expect(crc32(new Uint8Array(0))).toBe(0);
    const data = patternBytes(4099, 1);
    for (let start = 0; start < 9; start++) {
      for (const end of [start, start + 1, start + 7, start + 8, start + 15, 4099]) {
        const part = data.subarray(start, end);
        expect(crc32(part), `${start}-${end}`).toBe(nodeCrc32(part));
      }
    }
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), fc.uint8Array({ maxLength: 300 }), (a, b) => {
        expect(crc32(b, crc32(a))).toBe(nodeCrc32(Buffer.concat([a, b])));
      }),
    );
  });
});
