// Bundled by simd-browser.test.ts and run in Chromium: the SIMD kernels against the JavaScript
// ones on a grid of type sizes, block sizes and offsets, and LZ4 blocks valid and corrupt.
import {
  lz4CompressBlock,
  lz4CompressBound,
  lz4DecompressBlock,
  useCompressionPaths,
} from "@z/compression";
import { loadSimdKernels, wasmSimdSupported } from "@z/compression/internal";
import { bitshuffleBlock, bitunshuffleBlock } from "../../src/blosc/bitshuffle.js";
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
  return {
    simd: wasmSimdSupported(),
    loaded: kernels !== undefined,
    blocks,
    streams,
    rejected,
    mismatches,
  };
};
