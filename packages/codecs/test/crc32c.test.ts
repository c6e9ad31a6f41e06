import { ChecksumError, Crc32cCodec, crc32c } from "@z/codecs";
import { describe, expect, it } from "vitest";

describe("crc32c", () => {
  it("matches the published check value", () => {
    // The CRC-32C check value for the ASCII digits 1..9 (RFC 3720, appendix B.4 catalogue).
    expect(crc32c(new TextEncoder().encode("123456789"))).toBe(0xe3069283);
  });

  it("detects a flipped bit", async () => {
    const codec = new Crc32cCodec();
    const encoded = codec.encode(new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]));
    encoded[3] ^= 0x10;
    expect(() => codec.decode(encoded)).toThrow(ChecksumError);
  });
});
