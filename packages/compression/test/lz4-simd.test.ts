// The SIMD WebAssembly LZ4 block decoder against the JavaScript one: for valid and corrupt
// blocks, with and without earlier output to refer to, both accept and reject the same blocks,
// decode to the same bytes, and never write outside the decoded range.
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { DecompressionError } from "../src/errors.js";
import { lz4CompressBlock, lz4CompressBound, lz4DecompressBlock } from "../src/lz4.js";
import { useCompressionPaths } from "../src/paths.js";
import { loadSimdKernels, SIMD_MEMORY_LIMIT, type SimdKernels } from "../src/simd/load.js";
import { wasmSimdSupported } from "../src/simd/support.js";
import { lzData } from "./samples.js";

const RUNS = Number(process.env.PROPERTY_RUNS ?? 300);

let simd: SimdKernels;

beforeAll(async () => {
  const loaded = await loadSimdKernels();
  if (!loaded) throw new Error("this engine has WebAssembly SIMD, yet the kernels did not load");
  simd = loaded;
});

/** The JavaScript decoder's result: the end, or the error's message. */
function decodeJs(src: Uint8Array, dst: Uint8Array, start: number): number | string {
  useCompressionPaths({ simd: false });
  try {
    return lz4DecompressBlock(src, dst, start);
  } catch (error) {
    if (!(error instanceof DecompressionError)) throw error;
    return error.message;
  } finally {
    useCompressionPaths({ simd: true });
  }
}

function compress(data: Uint8Array): Uint8Array {
  const room = new Uint8Array(lz4CompressBound(data.length));
  return room.slice(0, lz4CompressBlock(data, room, 1));
}

/**
 * Decodes `block` after `prefix` (earlier output) into room for `size` more bytes, in both
 * decoders; checks they agree, and that the SIMD one leaves the prefix and everything past the
 * decoded end untouched.
 */
function agree(block: Uint8Array, prefix: Uint8Array, size: number): number | string {
  const start = prefix.length;
  const js = new Uint8Array(start + size);
  js.set(prefix);
  const expected = decodeJs(block, js, start);
  const wasm = new Uint8Array(start + size).fill(0xa5);
  wasm.set(prefix);
  const end = simd.lz4DecodeBlock(block, wasm, start);
  expect(end).toBeDefined();
  if (typeof expected === "string") {
    expect(end).toBeLessThan(0);
  } else {
    expect(end).toBe(expected);
    expect(Buffer.compare(wasm.subarray(0, expected), js.subarray(0, expected))).toBe(0);
    expect(wasm.subarray(expected).every((b) => b === 0xa5)).toBe(true);
  }
  return expected;
}

describe.runIf(wasmSimdSupported())("LZ4 block decoding in SIMD WebAssembly", () => {
  it("decodes what the compressor writes, as the JavaScript decoder does", () => {
    fc.assert(
      fc.property(lzData(70000, 600), fc.integer({ min: 0, max: 40 }), (data, extra) => {
        const block = compress(data);
        expect(agree(block, new Uint8Array(0), data.length + extra)).toBe(data.length);
      }),
      { numRuns: RUNS },
    );
  });

  it("agrees on corrupt blocks (flipped bytes, cuts, a wrong output size): rejects or decodes the same", () => {
    fc.assert(
      fc.property(
        lzData(9000, 400),
        fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { maxLength: 4 }),
        fc.nat(),
        fc.integer({ min: -20, max: 20 }),
        (data, flips, cut, sizeChange) => {
          const block = compress(data);
          for (const [at, value] of flips) if (block.length) block[at % block.length] = value;
          const stream = block.subarray(0, block.length - (cut % 8));
          agree(stream, new Uint8Array(0), Math.max(0, data.length + sizeChange));
        },
      ),
      { numRuns: RUNS },
    );
  });

  it("agrees on random bytes", () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 300 }),
        fc.integer({ min: 0, max: 2000 }),
        fc.integer({ min: 0, max: 64 }),
        (stream, size, prefixLength) => {
          const prefix = Uint8Array.from({ length: prefixLength }, (_, i) => i * 37);
          agree(stream, prefix, size);
        },
      ),
      { numRuns: RUNS },
    );
  });

  it("agrees on hand-made sequences: short and overlapping offsets, offsets into earlier output", () => {
    const sequence = fc.record({
      literals: fc.uint8Array({ maxLength: 40 }),
      offset: fc.oneof(fc.integer({ min: 1, max: 20 }), fc.integer({ min: 0, max: 70000 })),
      length: fc.oneof(fc.integer({ min: 4, max: 40 }), fc.integer({ min: 4, max: 3000 })),
    });
    fc.assert(
      fc.property(
        fc.array(sequence, { maxLength: 12 }),
        fc.uint8Array({ maxLength: 30 }),
        fc.integer({ min: 0, max: 70000 }),
        fc.integer({ min: -10, max: 40 }),
        (sequences, last, prefixLength, slack) => {
          const block = encodeSequences(sequences, last);
          const prefix = Uint8Array.from({ length: prefixLength }, (_, i) => (i * 13) ^ (i >> 7));
          const size = sequences.reduce((n, s) => n + s.literals.length + s.length, last.length);
          agree(block, prefix, Math.max(0, size + slack));
        },
      ),
      { numRuns: RUNS },
    );
  });

  it("keeps earlier output and offsets into it when only the last 64 KiB are copied in", () => {
    // 100 KiB of earlier output, then a block of one literal and a match 65535 bytes back.
    const prefix = Uint8Array.from({ length: 100 * 1024 }, (_, i) => (i * 7 + (i >> 8)) & 255);
    const block = Uint8Array.from([0x1f, 9, 0xff, 0xff, 30, 0x50, 1, 2, 3, 4, 5]);
    const end = agree(block, prefix, 100);
    expect(end).toBe(prefix.length + 1 + 49 + 5);
  });

  it("the dispatching decoder gives the JavaScript decoder's errors", () => {
    const bad = Uint8Array.from([0x10, 65, 2, 0, 0x00]);
    const js = decodeJs(bad, new Uint8Array(10), 0);
    expect(() => lz4DecompressBlock(bad, new Uint8Array(10))).toThrow(
      String(js).replace(/^.*?: /, ""),
    );
  });

  it("declines buffers beyond its memory bound, leaving them to JavaScript", () => {
    const dst = new Uint8Array(SIMD_MEMORY_LIMIT + 1);
    expect(simd.lz4DecodeBlock(Uint8Array.from([0x10, 65]), dst, 0)).toBeUndefined();
    expect(lz4DecompressBlock(Uint8Array.from([0x10, 65]), dst)).toBe(1);
  });
});

/** LZ4's encoding of a block from its sequences and last literals (offsets as given). */
function encodeSequences(
  sequences: { literals: Uint8Array; offset: number; length: number }[],
  last: Uint8Array,
): Uint8Array {
  const out: number[] = [];
  const lengthBytes = (n: number) => {
    for (; n >= 255; n -= 255) out.push(255);
    out.push(n);
  };
  const literals = (bytes: Uint8Array, match: number) => {
    out.push((Math.min(bytes.length, 15) << 4) | Math.min(match, 15));
    if (bytes.length >= 15) lengthBytes(bytes.length - 15);
    out.push(...bytes);
  };
  for (const { literals: bytes, offset, length } of sequences) {
    literals(bytes, length - 4);
    out.push(offset & 255, offset >> 8);
    if (length - 4 >= 15) lengthBytes(length - 4 - 15);
  }
  literals(last, 0);
  return Uint8Array.from(out);
}
