// node:zlib's compressors (the "#native" platform module): what they write, the pure-JS and
// WebAssembly decoders the browser build uses read back exactly, and the reverse; their bounds
// hold. zstd through node:zlib exists from Node 22.15: its tests run where it does (Node 24 in
// CI), and Node 20 checks that zstd then falls back to WebAssembly.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { useCompressionPaths } from "../src/paths.js";
import * as browserInflate from "../src/platform/inflate-impl.browser.js";
import { nativeCodecs } from "../src/platform/native.node.js";
import { loadZstdDecoder, zstdCompressWasm } from "../src/wasm.js";
import { zstdCompress, zstdIsNative, zstdLayout } from "../src/zstd.js";

const native = nativeCodecs as NonNullable<typeof nativeCodecs>;
const zstd = native.zstd;
const [major, minor] = process.versions.node.split(".").map(Number);
const zstdExpected = major > 22 || (major === 22 && minor >= 15);
if (!zstd) console.warn(`[native-codecs] Node ${process.version} has no node:zlib zstd`);

/** Compressible bytes: runs of a few values with some noise, as in real chunks. */
const chunkBytes = fc
  .tuple(fc.integer({ min: 0, max: 200_000 }), fc.integer({ min: 1, max: 1 << 30 }))
  .map(([n, seed]) => {
    const out = new Uint8Array(n);
    let x = seed;
    for (let i = 0; i < n; i++) {
      x = (Math.imul(x, 1103515245) + 12345) >>> 0;
      out[i] = ((i >> 7) % 13) ^ (x >>> 29);
    }
    return out;
  });

const same = (a: Uint8Array, b: Uint8Array) => Buffer.compare(a, b) === 0;

describe("node:zlib gzip and zlib", () => {
  it("writes streams the browser decoders (fflate, pako) read back exactly", async () => {
    await fc.assert(
      fc.asyncProperty(chunkBytes, fc.integer({ min: -1, max: 9 }), async (data, level) => {
        const n = data.length;
        const gz = await native.gzip(data, level);
        expect(same(await browserInflate.gunzipBounded(gz, n, true), data)).toBe(true);
        expect(same(await browserInflate.gunzipBounded(gz, n + 9, false), data)).toBe(true);
        const z = await native.deflate(data, level);
        expect(same(await browserInflate.unzlibBounded(z, n, true), data)).toBe(true);
      }),
      { numRuns: 25 },
    );
  });

  it("inflates into a block exactly, and refuses a stream longer than the block", async () => {
    const data = new Uint8Array(70_000).map((_, i) => (i * 7) % 251);
    const z = await native.deflate(data, 6);
    const block = new Uint8Array(data.length);
    expect(native.inflateInto(z, block)).toBe(data.length);
    expect(same(block, data)).toBe(true);
    expect(() => native.inflateInto(z, new Uint8Array(data.length - 1))).toThrow(/larger|buffer/i);
    expect(() => native.inflateInto(z.subarray(0, 100), block)).toThrow();
  });

  it("gives results that are not views of Node's shared buffer pool", async () => {
    for (const n of [0, 1, 100, 5000]) {
      const out = await native.gzip(new Uint8Array(n), 1);
      expect(out.byteOffset).toBe(0);
      expect(out.buffer.byteLength).toBe(out.length);
    }
  });
});

describe("zstd", () => {
  it(`node:zlib has zstd exactly where Node is 22.15 or later (here ${process.version})`, () => {
    expect(zstd !== undefined).toBe(zstdExpected);
    expect(zstdIsNative()).toBe(zstdExpected);
  });

  it("with the native path ruled out, writes numcodecs.js' bytes and says it is not native", async () => {
    const data = new Uint8Array(50_000).map((_, i) => (i >> 5) % 9);
    useCompressionPaths({ native: false });
    try {
      expect(zstdIsNative()).toBe(false);
      for (const level of [1, 3, 7])
        expect(same(await zstdCompress(data, level), await zstdCompressWasm(data, level))).toBe(
          true,
        );
    } finally {
      useCompressionPaths({ native: true });
    }
    expect(zstdIsNative()).toBe(zstdExpected);
  });

  it("frames declare their size and decode with the WebAssembly decoder", async () => {
    const decodeFrame = await loadZstdDecoder();
    await fc.assert(
      fc.asyncProperty(
        chunkBytes,
        fc.integer({ min: -5, max: 22 }),
        fc.boolean(),
        async (data, level, checksum) => {
          const frame = await zstdCompress(data, level, checksum);
          const layout = zstdLayout(frame);
          if ("error" in layout) throw new Error(layout.error);
          expect(layout.frames).toHaveLength(1);
          expect(layout.frames[0].contentSize).toBe(data.length);
          expect(Boolean(frame[4] & 0x04)).toBe(checksum);
          if (data.length > 0) expect(same(decodeFrame(frame, data.length), data)).toBe(true);
        },
      ),
      { numRuns: 20 },
    );
  });

  it.runIf(Boolean(zstd))(
    "node:zlib reads what the WebAssembly encoder writes, bounded",
    async () => {
      const native = zstd as NonNullable<typeof zstd>;
      const data = new Uint8Array(300_000).map((_, i) => (i >> 9) % 7);
      const frame = await zstdCompressWasm(data, 3);
      expect(same(await native.decompress(frame, data.length), data)).toBe(true);
      await expect(native.decompress(frame, data.length - 1)).rejects.toThrow();
    },
  );
});
