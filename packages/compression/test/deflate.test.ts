// The bounded inflate of each platform (node:zlib in Node; fflate and pako in browsers) and the
// gzip layout Python writes: round trips, and what they do with bad input (truncated, corrupt,
// oversized): always a DecompressionError, never a crash, a hang, garbage or an allocation
// beyond the bound.
import { deflateSync, gzipSync, crc32 as nodeCrc32 } from "node:zlib";
import { flipped, rejectsOrSame, spreadPositions } from "@z/test-utils";
import { describe, expect, it } from "vitest";
import { gzipCompressPython } from "../src/deflate-sync.js";
import { DecompressionError } from "../src/errors.js";
import * as nodeInflate from "../src/platform/inflate.node.js";
// The browser inflate itself (inflate.browser.ts only loads it on first use).
import * as browserInflate from "../src/platform/inflate-impl.browser.js";
import { rejection as decodeError, same } from "./samples.js";

/** Smooth float32 data (a sine), the kind compressors see in arrays. */
function smooth(n: number, seed = 1): Uint8Array {
  const f = new Float32Array(Math.ceil(n / 4));
  for (let i = 0; i < f.length; i++) f[i] = Math.sin((i + seed) / 300) * 100;
  return new Uint8Array(f.buffer, 0, n);
}

const platforms = [
  ["node:zlib", nodeInflate],
  ["browser (fflate + pako)", browserInflate],
] as const;

describe("gzip", () => {
  it("browser encoder: Python's header (no flags, mtime 0, XFL by level, OS 255) and a CRC-32 + size trailer", async () => {
    const data = smooth(5000);
    for (const [level, xfl] of [
      [1, 4],
      [9, 2],
      [5, 0],
      [0, 0],
      [-1, 0],
    ]) {
      const encoded = gzipCompressPython(data, level);
      expect([...encoded.subarray(0, 10)]).toEqual([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, xfl, 0xff]);
      const trailer = new DataView(encoded.buffer, encoded.length - 8);
      expect(trailer.getUint32(0, true)).toBe(nodeCrc32(data));
      expect(trailer.getUint32(4, true)).toBe(data.length);
    }
    // Deterministic: equal data, equal bytes.
    expect(same(gzipCompressPython(data, 5), gzipCompressPython(Uint8Array.from(data), 5))).toBe(
      true,
    );
  });

  for (const [platform, inflate] of platforms) {
    describe(`decoding with ${platform}`, () => {
      const data = smooth(20_000);
      const encoded = gzipSync(data, { level: 6 });
      const n = data.length;
      const gunzip = (bytes: Uint8Array, limit: number, exact: boolean) =>
        inflate.gunzipBounded(bytes, limit, exact);

      it("reads every member of a multi-member file, and zero padding, as Python does", async () => {
        const other = smooth(3000, 99);
        const two = Buffer.concat([encoded, gzipSync(other)]);
        const both = Buffer.concat([data, other]);
        expect(same(await gunzip(two, both.length, true), both)).toBe(true);
        expect(same(await gunzip(two, both.length + 100, false), both)).toBe(true);
        // Two equal members: the trailer at the end also matches the first member alone.
        const twice = Buffer.concat([encoded, encoded]);
        expect(same(await gunzip(twice, 2 * n, true), Buffer.concat([data, data]))).toBe(true);
        expect(same(await gunzip(twice, 3 * n, false), Buffer.concat([data, data]))).toBe(true);
        const padded = Buffer.concat([encoded, Buffer.alloc(16)]);
        expect(same(await gunzip(padded, n, true), data)).toBe(true);
      });

      it("rejects trailing garbage, truncation and corruption", async () => {
        await decodeError(() => gunzip(Buffer.concat([encoded, Buffer.from("garbage!")]), n, true));
        for (const cut of [
          0,
          1,
          9,
          10,
          11,
          100,
          encoded.length - 9,
          encoded.length - 8,
          encoded.length - 1,
        ]) {
          await decodeError(() => gunzip(encoded.subarray(0, cut), n, true));
          await decodeError(() => gunzip(encoded.subarray(0, cut), n + 100, false));
        }
        let rejected = 0;
        for (const at of spreadPositions(encoded.length)) {
          const bad = flipped(encoded, at);
          if (at >= 4 && at <= 9) {
            // mtime, XFL and OS are informational: the data still decodes.
            expect(same(await gunzip(bad, n, true), data)).toBe(true);
            continue;
          }
          // The CRC-32 catches whatever inflate does not; only padding bits after the last
          // deflate block may flip unnoticed, and then the data is intact.
          if (await rejectsOrSame(() => gunzip(bad, n, true), data, DecompressionError)) rejected++;
          await rejectsOrSame(() => gunzip(bad, n + 100, false), data, DecompressionError);
        }
        expect(rejected).toBeGreaterThan(50);
      });

      it("stops at the bound: more output than expected is an error", async () => {
        const tooBig = await decodeError(() => gunzip(encoded, n - 1, true));
        expect(tooBig.message).toMatch(/more than|corrupt/);
        await decodeError(() => gunzip(encoded, n - 1, false));
        // A bomb: 64 MiB of zeros in ~64 KiB, against a 1 MiB bound.
        const bomb = gzipSync(new Uint8Array(64 << 20), { level: 9 });
        const started = performance.now();
        await decodeError(() => gunzip(bomb, 1 << 20, false));
        await decodeError(() => gunzip(bomb, 1 << 20, true));
        expect(performance.now() - started).toBeLessThan(5000);
      });
    });
  }
});

describe("zlib", () => {
  for (const [platform, inflate] of platforms) {
    describe(`decoding with ${platform}`, () => {
      const data = smooth(20_000);
      const encoded = deflateSync(data);
      const n = data.length;
      const unzlib = (bytes: Uint8Array, limit: number, exact: boolean) =>
        inflate.unzlibBounded(bytes, limit, exact);

      it("decodes, ignoring bytes after the stream as Python's zlib.decompress does", async () => {
        expect(same(await unzlib(encoded, n, true), data)).toBe(true);
        expect(same(await unzlib(encoded, n + 5, false), data)).toBe(true);
        expect(
          same(await unzlib(Buffer.concat([encoded, Buffer.from("junk")]), n + 5, false), data),
        ).toBe(true);
      });

      it("rejects truncation and corruption (the Adler-32 catches what inflate does not)", async () => {
        for (const cut of [0, 1, 2, 3, 50, encoded.length - 4, encoded.length - 1]) {
          await decodeError(() => unzlib(encoded.subarray(0, cut), n, true));
          await decodeError(() => unzlib(encoded.subarray(0, cut), n + 100, false));
        }
        let rejected = 0;
        for (const at of spreadPositions(encoded.length)) {
          if (
            await rejectsOrSame(
              () => unzlib(flipped(encoded, at), n, true),
              data,
              DecompressionError,
            )
          )
            rejected++;
          await rejectsOrSame(
            () => unzlib(flipped(encoded, at), n + 100, false),
            data,
            DecompressionError,
          );
        }
        expect(rejected).toBeGreaterThan(50);
      });

      it("stops at the bound", async () => {
        await decodeError(() => unzlib(encoded, n - 1, true));
        await decodeError(() => unzlib(encoded, n - 1, false));
        const bomb = deflateSync(new Uint8Array(64 << 20), { level: 9 });
        await decodeError(() => unzlib(bomb, 1 << 20, false));
        await decodeError(() => unzlib(bomb, 1 << 20, true));
      });
    });
  }
});
