// The LZ4 frame format, LZMA's containers and bzip2: round trips where there is an encoder,
// and bounded decoding of oversized, truncated and foreign data.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { bz2Decompress } from "../src/bz2.js";
import { lz4FrameCompress, lz4FrameDecompress } from "../src/lz4.js";
import { type LzmaFormat, lzmaCompress, lzmaDecompress } from "../src/lzma.js";
import { rejection, same } from "./samples.js";

const data = Uint8Array.from({ length: 100_000 }, (_, i) => ((i >> 4) % 29) ^ (i & 3));
describe("LZ4 frames", () => {
  it("round-trip, bounded by the limit and the expected size", async () => {
    const frame = await lz4FrameCompress(data);
    expect(same(lz4FrameDecompress(frame, { maxSize: data.length }), data)).toBe(true);
    const n = data.length;
    expect(same(lz4FrameDecompress(frame, { maxSize: 1 << 20, expectedSize: n }), data)).toBe(true);
    const error = await rejection(() => lz4FrameDecompress(frame, { maxSize: n - 1 }));
    expect(error.format).toBe("LZ4 frame");
    await rejection(() => lz4FrameDecompress(frame, { maxSize: 1 << 20, expectedSize: n + 1 }));
    for (const cut of [0, 3, 7, 15, 20, frame.length - 4, frame.length - 1])
      await rejection(() => lz4FrameDecompress(frame.subarray(0, cut), { maxSize: n }));
  });
});

describe("LZMA containers", () => {
  for (const format of ["xz", "lzma", "lzma2"] as LzmaFormat[]) {
    it(`${format}: round-trips, and refuses data past the bound before decoding`, async () => {
      const encoded = await lzmaCompress(data, format);
      const n = data.length;
      expect(same(await lzmaDecompress(encoded, format, { maxSize: n }), data)).toBe(true);
      if (format !== "lzma2")
        expect(same(await lzmaDecompress(encoded, "auto", { maxSize: n }), data)).toBe(true);
      const error = await rejection(() => lzmaDecompress(encoded, format, { maxSize: n - 1 }));
      expect(error.message).toMatch(/more than the/);
      await rejection(() => lzmaDecompress(encoded.subarray(0, 12), format, { maxSize: n }));
    });
  }
});

const PYTHON = "/usr/bin/python3";

describe.skipIf(!existsSync(PYTHON))("bzip2", () => {
  const compressed = () => {
    const run = spawnSync(
      PYTHON,
      ["-c", "import bz2, sys; sys.stdout.buffer.write(bz2.compress(sys.stdin.buffer.read(), 9))"],
      { input: data },
    );
    return new Uint8Array(run.stdout);
  };

  it("decodes what Python's bz2 module writes, and stops at the bound", async () => {
    const encoded = compressed();
    expect(same(await bz2Decompress(encoded, { maxSize: data.length }), data)).toBe(true);
    const error = await rejection(() => bz2Decompress(encoded, { maxSize: data.length - 1 }));
    expect(error.limit).toBe(data.length - 1);
    await rejection(() => bz2Decompress(Uint8Array.of(1, 2, 3, 4), { maxSize: 10 }));
    await rejection(() =>
      bz2Decompress(encoded.subarray(0, encoded.length - 10), { maxSize: data.length }),
    );
  });
});
