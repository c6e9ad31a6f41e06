// Bundled by simd-browser.test.ts and run in Chromium: the SIMD kernels against the JavaScript
// ones on a grid of type sizes, block sizes and offsets, LZ4 blocks valid and corrupt, and Blosc
// frames decoded whole in the module (whole and in block ranges) against the JavaScript loop.
import {
  lz4CompressBlock,
  lz4CompressBound,
  lz4DecompressBlock,
  useCompressionPaths,
} from "@z/compression";
import { loadSimdKernels, wasmSimdSupported } from "@z/compression/internal";
import { bitshuffleBlock, bitunshuffleBlock } from "../../src/blosc/bitshuffle.js";
import { bloscCompress } from "../../src/blosc/compress.js";
import { decodeBloscFrame } from "../../src/blosc/decompress.js";
import { shuffleBlock, unshuffleBlock } from "../../src/blosc/shuffle.js";

type Block = typeof shuffleBlock;

/** Deterministic bytes from a seed (xorshift32). */
function bytes(n: number, seed: number, runs = false): Uint8Array {
  const out = new Uint8Array(n);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < n; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = runs ? (i >> (x & 7)) & 0x1f : x & 0xff;
  }
  return out;
}

/** Float32 samples of a smooth curve with a little noise, as bytes. */
function smooth(n: number, seed: number): Uint8Array {
  const out = new Uint8Array(n);
  const view = new DataView(out.buffer);
  const noise = bytes(n, seed);
  for (let i = 0; i + 4 <= n; i += 4) {
    view.setFloat32(i, Math.round(Math.sin(i / 900) * 300 + (noise[i] & 3)) / 4, true);
  }
  return out;
}

function same(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}

/** Runs `use` with the SIMD path switched as given, restoring it after. */
function withSimd<T>(simd: boolean, use: () => T): T {
  useCompressionPaths({ simd });
  try {
    return use();
  } finally {
    useCompressionPaths({ simd: true });
  }
}

(globalThis as Record<string, unknown>).__run = async () => {
  const kernels = await loadSimdKernels();
  const mismatches: string[] = [];
  let blocks = 0;
  const shuffles: [string, Block][] = [
    ["shuffleBlock", shuffleBlock],
    ["unshuffleBlock", unshuffleBlock],
    ["bitshuffleBlock", bitshuffleBlock],
    ["bitunshuffleBlock", bitunshuffleBlock],
  ];
  for (const typesize of [1, 2, 3, 4, 5, 7, 8, 12, 16, 17, 32]) {
    for (const size of [0, 15, 64, 100, 257, 1024, 4099, 65536 + 24]) {
      const src = bytes(size + 3, typesize * 7919 + size);
      for (const [name, block] of shuffles) {
        const expected = new Uint8Array(size + 5);
        withSimd(false, () => block(typesize, size, src, 3, expected, 5));
        const actual = new Uint8Array(size + 5);
        block(typesize, size, src, 3, actual, 5);
        blocks++;
        if (!same(actual, expected)) mismatches.push(`${name} typesize ${typesize} size ${size}`);
      }
    }
  }
  let streams = 0;
  let rejected = 0;
  for (let seed = 1; seed <= 60; seed++) {
    const data = bytes(2000 + seed * 97, seed, seed % 3 !== 0);
    const room = new Uint8Array(lz4CompressBound(data.length));
    const block = room.slice(0, lz4CompressBlock(data, room));
    for (let corrupt = 0; corrupt < 8; corrupt++) {
      const stream = Uint8Array.from(block);
      if (corrupt > 0) stream[(seed * 131 * corrupt) % stream.length] ^= 1 << (corrupt % 8);
      const decode = () => {
        const out = new Uint8Array(data.length);
        try {
          return { end: lz4DecompressBlock(stream, out), out };
        } catch (error) {
          return { error: (error as Error).message };
        }
      };
      const expected = withSimd(false, decode);
      const actual = decode();
      streams++;
      if ("error" in expected) rejected++;
      const agree =
        "error" in expected
          ? actual.error === expected.error
          : actual.end === expected.end &&
            same(actual.out!.subarray(0, actual.end), expected.out!.subarray(0, expected.end));
      if (!agree) mismatches.push(`lz4 seed ${seed} corruption ${corrupt}`);
    }
  }
  let frames = 0;
  let framesInModule = 0;
  for (const cname of ["lz4", "blosclz"] as const) {
    for (const shuffle of [0, 1, 2] as const) {
      for (const typesize of [1, 2, 4, 7, 8, 16, 24]) {
        for (const [size, blocksize] of [
          [100_000, 0],
          [30_001, 1000],
        ]) {
          const data = smooth(size, typesize + shuffle);
          const settings = { cname, clevel: 5, shuffle, typesize, blocksize };
          const frame = await bloscCompress(data, settings);
          const label = `blosc ${JSON.stringify(settings)}`;
          const ranges: [number, number][] = [
            [0, 10],
            [size >> 1, (size >> 1) + 3000],
          ];
          const decode = () => {
            const whole = decodeBloscFrame(frame, { maxSize: size }) as Uint8Array;
            const into = new Uint8Array(size).fill(0x5a);
            decodeBloscFrame(frame, { maxSize: size, ranges, into });
            return [Uint8Array.from(whole), into];
          };
          const expected = withSimd(false, decode);
          const actual = decode();
          frames++;
          if (!same(expected[0], data)) mismatches.push(`${label}: JavaScript decode`);
          if (!same(actual[0], expected[0])) mismatches.push(`${label}: whole frame`);
          if (!same(actual[1], expected[1])) mismatches.push(`${label}: ranges into a buffer`);
          const nblocks = Math.ceil(size / new DataView(frame.buffer).getInt32(8, true));
          const all = Array.from({ length: nblocks }, (_, j) => j);
          const direct = kernels?.bloscDecodeBlocks(frame, all);
          if (direct instanceof Uint8Array) {
            framesInModule++;
            if (!same(direct, data)) mismatches.push(`${label}: the module's decode`);
          }
        }
      }
    }
  }
  return {
    simd: wasmSimdSupported(),
    loaded: kernels !== undefined,
    blocks,
    streams,
    rejected,
    frames,
    framesInModule,
    mismatches,
  };
};
