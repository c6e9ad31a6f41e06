// Partial blosc decodes (only the blocks some byte ranges touch) and decodes into a given buffer,
// against the whole decode as the reference: every hinted byte equals the whole decode's, bytes of
// untouched blocks keep what the destination held, shared memory works, frames written by
// c-blosc (numcodecs) too, and corrupt frames still fail where the decode looks.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import {
  BLOSC_CNAMES,
  type BloscCname,
  bloscCompress,
  bloscDecompress,
  CodecError,
  DecodeError,
  readBloscHeader,
} from "@z/codecs";
import type { IndexRange } from "@z/ndarray";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

const PYTHON = "/usr/bin/python3";

/** Compressible bytes with some noise, so frames mix compressed and raw streams. */
function sample(n: number, seed: number): Uint8Array {
  const out = new Uint8Array(n);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < n; i++) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    out[i] =
      (x >>> 24) % 16 === 0 ? x >>> 16 : (Math.floor(Math.sin(i / 53) * 50) + (i % 5)) & 0xff;
  }
  return out;
}

function int32(frame: Uint8Array, at: number): number {
  return new DataView(frame.buffer, frame.byteOffset).getInt32(at, true);
}

/** Whether each block of a frame holds a byte of some range. */
function touched(frame: Uint8Array, ranges: readonly IndexRange[]): boolean[] {
  const { nbytes, blocksize } = readBloscHeader(frame);
  const blocks = new Array<boolean>(Math.ceil(nbytes / Math.max(1, blocksize))).fill(false);
  for (const [b, e] of ranges) for (let i = b; i < e; i++) blocks[Math.floor(i / blocksize)] = true;
  return blocks;
}

/** A view of `n` bytes at `offset` of a SharedArrayBuffer, every byte of which is `fill`. */
function sharedView(n: number, offset: number, fill: number): Uint8Array {
  const buffer = new SharedArrayBuffer(n + offset + 7);
  new Uint8Array(buffer).fill(fill);
  return new Uint8Array(buffer, offset, n);
}

/**
 * Checks a partial decode of `frame` for `ranges` against `whole`, without and with a destination
 * (a shared, offset view full of a sentinel byte).
 */
async function checkPartial(
  frame: Uint8Array,
  whole: Uint8Array,
  ranges: readonly IndexRange[],
  label: string,
): Promise<void> {
  const n = whole.length;
  const part = await bloscDecompress(frame, { maxSize: n, expectedSize: n, ranges });
  expect(part.length, label).toBe(n);
  for (const [b, e] of ranges)
    expect(Buffer.from(part.subarray(b, e)).equals(Buffer.from(whole.subarray(b, e))), label).toBe(
      true,
    );
  const into = sharedView(n, 3, 0xa5);
  const result = await bloscDecompress(frame, { maxSize: n, ranges, into });
  expect(result, label).toBe(into);
  const blocksize = readBloscHeader(frame).blocksize;
  const hit = touched(frame, ranges);
  const inRange = new Uint8Array(n);
  for (const [b, e] of ranges) inRange.fill(1, b, e);
  for (let i = 0; i < n; i++) {
    if (inRange[i]) {
      if (into[i] !== whole[i]) expect(into[i], `${label}: byte ${i}`).toBe(whole[i]);
    } else if (!hit[Math.floor(i / blocksize)] && into[i] !== 0xa5) {
      expect(into[i], `${label}: byte ${i} of an untouched block`).toBe(0xa5);
    }
  }
}

/** Random ranges inside `0..n`, unsorted and possibly overlapping or empty. */
const rangesIn = (n: number) =>
  fc.array(
    fc
      .tuple(fc.integer({ min: 0, max: n }), fc.integer({ min: 0, max: n }))
      .map(([a, b]): IndexRange => (a <= b ? [a, Math.min(b, a + 1 + (b % 997))] : [b, b])),
    { minLength: 0, maxLength: 5 },
  );

const CNAMES: BloscCname[] = ["lz4", "blosclz", "zstd", "zlib", "snappy", "lz4hc"];

describe("partial blosc decodes against the whole decode", () => {
  it("decodes every hinted byte, leaves untouched blocks alone (random frames and ranges)", async () => {
    const frameCase = fc.record({
      // Split blocks are at least 64 KiB: frames of several of them need more data.
      n: fc.oneof(
        fc.integer({ min: 1, max: 300 }),
        fc.integer({ min: 301, max: 60000 }),
        fc.integer({ min: 60001, max: 300000 }),
      ),
      typesize: fc.constantFrom(1, 2, 4, 8),
      shuffle: fc.constantFrom(0, 1, 2) as fc.Arbitrary<0 | 1 | 2>,
      cname: fc.constantFrom(...CNAMES),
      // 0 stores the data uncompressed (a memcpyed frame).
      clevel: fc.constantFrom(0, 1, 5, 9),
      // 0 is c-blosc's own choice (often a single block for small data).
      blocksize: fc.constantFrom(0, 0, 64, 200, 1024, 4096, 16384),
      seed: fc.nat(),
    });
    await fc.assert(
      fc.asyncProperty(
        frameCase.chain((c) => fc.tuple(fc.constant(c), rangesIn(c.n))),
        async ([c, ranges]) => {
          const data = sample(c.n, c.seed);
          const frame = await bloscCompress(data, c);
          const whole = await bloscDecompress(frame, { maxSize: c.n, expectedSize: c.n });
          expect(Buffer.from(whole).equals(Buffer.from(data))).toBe(true);
          await checkPartial(frame, whole, ranges, JSON.stringify({ ...c, ranges }));
        },
      ),
      { numRuns: 200 },
    );
  });

  it("covers single-block, memcpyed and leftover-block frames explicitly", async () => {
    const cases = [
      { label: "single block", n: 10000, blocksize: 10000, clevel: 5 },
      { label: "memcpyed", n: 10007, blocksize: 0, clevel: 0 },
      // Split blocks are 64 KiB at least: 200007 bytes leave a leftover of 3399.
      { label: "leftover block", n: 200007, blocksize: 1000, clevel: 5 },
    ];
    for (const { label, n, blocksize, clevel } of cases) {
      const data = sample(n, 3);
      for (const cname of BLOSC_CNAMES) {
        const frame = await bloscCompress(data, {
          cname,
          clevel,
          shuffle: 1,
          typesize: 4,
          blocksize,
        });
        const h = readBloscHeader(frame);
        if (label === "single block") expect(h.blocksize).toBe(n);
        if (label === "memcpyed") expect(h.memcpyed).toBe(true);
        if (label === "leftover block") {
          expect(h.nbytes % h.blocksize, cname).toBeGreaterThan(0);
          expect(Math.ceil(h.nbytes / h.blocksize), cname).toBeGreaterThan(2);
        }
        const lastBlock = n - (n % h.blocksize || h.blocksize);
        const rangeSets: IndexRange[][] = [
          [],
          [[n - 3, n]],
          [[0, 1]],
          [[Math.max(0, lastBlock - 1), lastBlock + 1]],
          [
            [999, 1001],
            [5000, 5000],
          ],
        ];
        for (const ranges of rangeSets)
          await checkPartial(frame, data, ranges, `${label} ${cname} ${JSON.stringify(ranges)}`);
      }
    }
  });

  it("decodes whole frames into a shared buffer's view", async () => {
    for (const cname of CNAMES) {
      for (const shuffle of [0, 1, 2] as const) {
        const data = sample(33333, shuffle + 1);
        const frame = await bloscCompress(data, {
          cname,
          clevel: 5,
          shuffle,
          typesize: 8,
          blocksize: 4096,
        });
        const into = sharedView(data.length, 5, 0);
        const out = await bloscDecompress(frame, { maxSize: data.length, into });
        expect(out).toBe(into);
        expect(into.buffer).toBeInstanceOf(SharedArrayBuffer);
        expect(Buffer.from(into).equals(Buffer.from(data)), `${cname} ${shuffle}`).toBe(true);
      }
    }
    // An empty frame leaves an empty destination as it is.
    const empty = await bloscCompress(new Uint8Array(0), {
      cname: "lz4",
      clevel: 5,
      shuffle: 1,
      typesize: 4,
      blocksize: 0,
    });
    const none = new Uint8Array(0);
    expect(await bloscDecompress(empty, { maxSize: 0, into: none, ranges: [[0, 0]] })).toBe(none);
  });

  it("rejects ranges outside the data and destinations of the wrong size", async () => {
    const data = sample(5000, 9);
    const frame = await bloscCompress(data, {
      cname: "lz4",
      clevel: 5,
      shuffle: 1,
      typesize: 4,
      blocksize: 1024,
    });
    await expect(bloscDecompress(frame, { maxSize: 5000, ranges: [[4990, 5001]] })).rejects.toThrow(
      CodecError,
    );
    await expect(bloscDecompress(frame, { maxSize: 5000, ranges: [[-1, 3]] })).rejects.toThrow(
      /byte range \[-1, 3\)/,
    );
    await expect(
      bloscDecompress(frame, { maxSize: 5000, expectedSize: 5000, into: new Uint8Array(4999) }),
    ).rejects.toThrow(CodecError);
    // Without an expected size, the destination's size is the one the header must state.
    const error = await bloscDecompress(frame, { maxSize: 9000, into: new Uint8Array(6000) }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(DecodeError);
    expect((error as Error).message).toMatch(/decodes to 5000 bytes, but it must be 6000/);
  });
});

/** The offset of block `j`'s first stream's data and its compressed size. */
function firstStream(frame: Uint8Array, j: number): { at: number; size: number } {
  const start = int32(frame, 16 + 4 * j);
  return { at: start + 4, size: int32(frame, start) };
}

describe("partial decodes of corrupt frames", () => {
  for (const cname of CNAMES) {
    it(`${cname}: a corrupt stream fails in a touched block and goes unnoticed in others`, async () => {
      const data = sample(400000, 5);
      const frame = (
        await bloscCompress(data, { cname, clevel: 5, shuffle: 1, typesize: 4, blocksize: 4096 })
      ).slice();
      expect(Math.ceil(data.length / readBloscHeader(frame).blocksize)).toBeGreaterThan(4);
      const { blocksize } = readBloscHeader(frame);
      const j = 3;
      const { at, size } = firstStream(frame, j);
      const neblock = readBloscHeader(frame).dontSplit ? blocksize : blocksize / 4;
      expect(size, "the stream must be compressed for this test").toBeLessThan(neblock);
      // Wreck the stream's data, but not its size: the block table stays valid.
      frame.fill(0xff, at, at + size);
      const wholeError = await bloscDecompress(frame, { maxSize: data.length }).catch((e) => e);
      expect(wholeError).toBeInstanceOf(DecodeError);
      const inBlock: IndexRange = [j * blocksize + 10, j * blocksize + 11];
      const touchedError = await bloscDecompress(frame, {
        maxSize: data.length,
        ranges: [[0, 1], inBlock],
      }).catch((e) => e);
      expect(touchedError).toBeInstanceOf(DecodeError);
      const elsewhere: IndexRange[] = [
        [0, j * blocksize],
        [(j + 1) * blocksize, data.length],
      ];
      const out = await bloscDecompress(frame, { maxSize: data.length, ranges: elsewhere });
      for (const [b, e] of elsewhere)
        expect(Buffer.from(out.subarray(b, e)).equals(Buffer.from(data.subarray(b, e)))).toBe(true);
    });
  }

  it("checks the header and the whole block table even for ranges far from the damage", async () => {
    const data = sample(40000, 6);
    // zstd blocks are never split: the forced 4096-byte blocks make 10 of them.
    const good = await bloscCompress(data, {
      cname: "zstd",
      clevel: 5,
      shuffle: 1,
      typesize: 4,
      blocksize: 4096,
    });
    expect(readBloscHeader(good).blocksize).toBe(4096);
    const ranges: IndexRange[] = [[0, 10]];
    // An offset of the last block pointing into the table.
    const badOffset = good.slice();
    new DataView(badOffset.buffer).setInt32(16 + 4 * 9, 20, true);
    await expect(bloscDecompress(badOffset, { maxSize: 40000, ranges })).rejects.toThrow(
      /block 9 starts at byte 20/,
    );
    // A stream of the last block claiming more bytes than the frame has.
    const badSize = good.slice();
    const start = int32(badSize, 16 + 4 * 9);
    new DataView(badSize.buffer).setInt32(start, 1 << 20, true);
    await expect(bloscDecompress(badSize, { maxSize: 40000, ranges })).rejects.toThrow(DecodeError);
    // A truncated frame.
    await expect(
      bloscDecompress(good.subarray(0, good.length - 1), { maxSize: 40000, ranges }),
    ).rejects.toThrow(/truncated/);
    // A header beyond the bound.
    await expect(bloscDecompress(good, { maxSize: 39999, ranges })).rejects.toThrow(DecodeError);
  });
});

/** Whether Debian's python3 with numcodecs (c-blosc 1.21) is here. */
const python =
  existsSync(PYTHON) && spawnSync(PYTHON, ["-c", "import numcodecs.blosc"]).status === 0;
if (!python)
  console.warn(`[blosc partial] c-blosc frames SKIPPED: ${PYTHON} with numcodecs not found`);

/** Frames c-blosc writes through numcodecs, several threads storing blocks out of order. */
function numcodecsFrames(): { label: string; sha256: string; n: number; frame: Uint8Array }[] {
  const script = `
import json, sys, base64, hashlib, numpy as np, numcodecs
from numcodecs import blosc
blosc.set_nthreads(4)
out = []
rng = np.random.default_rng(7)
for cname in ["lz4", "blosclz", "zstd", "zlib", "snappy", "lz4hc"]:
    for shuffle in [0, 1, 2]:
        for dtype, blocksize in [("u1", 0), ("<u2", 2048), ("<f4", 4096), ("<f8", 0), ("<f8", 1000)]:
            n = 90003 if blocksize == 1000 else 60000
            x = (np.sin(np.arange(n) / 40) * 1000 + rng.integers(0, 4, n)).astype(dtype)
            codec = numcodecs.Blosc(cname=cname, clevel=5, shuffle=shuffle, blocksize=blocksize)
            out.append({"label": f"{cname} {shuffle} {dtype} {blocksize}",
                        "sha256": hashlib.sha256(x.tobytes()).hexdigest(), "n": x.nbytes,
                        "frame": base64.b64encode(codec.encode(x)).decode()})
json.dump(out, sys.stdout)
`;
  const run = spawnSync(PYTHON, ["-c", script], { maxBuffer: 1 << 28, encoding: "utf8" });
  if (run.status !== 0) throw new Error(run.stderr);
  const cases = JSON.parse(run.stdout) as {
    label: string;
    sha256: string;
    n: number;
    frame: string;
  }[];
  return cases.map((c) => ({ ...c, frame: new Uint8Array(Buffer.from(c.frame, "base64")) }));
}

describe.skipIf(!python)("partial decodes of frames c-blosc wrote (numcodecs)", () => {
  it("decodes every hinted byte as the whole decode does", async () => {
    const frames = numcodecsFrames();
    expect(frames.length).toBe(90);
    let blocks = 0;
    for (const { label, sha256, n, frame } of frames) {
      const whole = await bloscDecompress(frame, { maxSize: n, expectedSize: n });
      expect(createHash("sha256").update(whole).digest("hex"), label).toBe(sha256);
      blocks += Math.ceil(n / readBloscHeader(frame).blocksize);
      const samples = fc.sample(rangesIn(n), { numRuns: 4, seed: n });
      for (const ranges of samples)
        await checkPartial(frame, whole, ranges, `${label} ${JSON.stringify(ranges)}`);
    }
    // Most frames have several blocks, so partial decodes skip some.
    expect(blocks).toBeGreaterThan(3 * frames.length);
  });
});
