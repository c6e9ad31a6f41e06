// The SIMD WebAssembly shuffles against the JavaScript ones: for any type size, block size
// (tails that are not a multiple of 16 or of the type size included) and buffer offsets, both
// write the same bytes, and nothing outside the block.
import { useCompressionPaths } from "@z/compression";
import { loadSimdKernels, type SimdKernels, wasmSimdSupported } from "@z/compression/internal";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { bitshuffleBlock, bitunshuffleBlock } from "../src/blosc/bitshuffle.js";
import { shuffleBlock, unshuffleBlock } from "../src/blosc/shuffle.js";

const RUNS = Number(process.env.PROPERTY_RUNS ?? 300);

type Block = typeof shuffleBlock;

const simd = await loadSimdKernels();

const KERNELS: [Exclude<keyof SimdKernels, "lz4DecodeBlock" | "bloscDecodeBlocks">, Block][] = [
  ["shuffleBlock", shuffleBlock],
  ["unshuffleBlock", unshuffleBlock],
  ["bitshuffleBlock", bitshuffleBlock],
  ["bitunshuffleBlock", bitunshuffleBlock],
];

/** Type sizes: the vectorised ones more often, and any up to 40. */
const typesizeArb = fc.oneof(fc.constantFrom(2, 4, 8, 16), fc.integer({ min: 1, max: 40 }));
/** Block sizes: small ones (every tail) and large ones (many vector steps). */
const sizeArb = fc.oneof(fc.integer({ min: 0, max: 300 }), fc.integer({ min: 0, max: 20_000 }));

/** Runs `kernel` on a fresh output filled with 0x5a, `margin` bytes each side of the block. */
function run(
  kernel: Block,
  typesize: number,
  src: Uint8Array,
  srcOff: number,
  size: number,
  margin: number,
): Uint8Array {
  const dst = new Uint8Array(size + 2 * margin).fill(0x5a);
  kernel(typesize, size, src, srcOff, dst, margin);
  return dst;
}

it("the SIMD kernels load where the engine has WebAssembly SIMD", () => {
  expect(simd !== undefined).toBe(wasmSimdSupported());
});

describe.runIf(simd)("Blosc's shuffles in SIMD WebAssembly", () => {
  for (const [name, scalar] of KERNELS) {
    it(`${name}: the same bytes as the JavaScript kernel`, () => {
      const kernel = simd![name];
      fc.assert(
        fc.property(
          typesizeArb,
          sizeArb,
          fc.nat(20),
          fc.nat(20),
          fc.integer(),
          (typesize, size, srcOff, margin, seed) => {
            const src = Uint8Array.from(
              { length: srcOff + size },
              (_, i) => (Math.imul(i, 2654435761) ^ seed) >>> 13,
            );
            useCompressionPaths({ simd: false });
            let expected: Uint8Array;
            try {
              expected = run(scalar, typesize, src, srcOff, size, margin);
            } finally {
              useCompressionPaths({ simd: true });
            }
            const checked: Block = (t, n, from, fromOff, to, toOff) => {
              expect(kernel(t, n, from, fromOff, to, toOff)).toBe(true);
            };
            const actual = run(checked, typesize, src, srcOff, size, margin);
            expect(Buffer.compare(actual, expected)).toBe(0);
            // Through the JavaScript entry point, which dispatches to the kernel.
            expect(Buffer.compare(run(scalar, typesize, src, srcOff, size, margin), expected)).toBe(
              0,
            );
          },
        ),
        { numRuns: RUNS },
      );
    });
  }
});
