// Blosc frames decoded whole in the SIMD WebAssembly module (LZ4 and BloscLZ streams, the
// shuffles, block ranges, decoding into a given buffer) against the JavaScript block loop: the
// same bytes for frames our encoder and c-blosc (numcodecs) write, the same bytes left in a
// destination's untouched blocks, the same error for corrupt frames, and the module itself
// accepts exactly the frames the JavaScript decoder accepts (so the fast path is really taken).
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { useCompressionPaths } from "@z/compression";
import { loadSimdKernels, wasmSimdSupported } from "@z/compression/internal";
import type { IndexRange } from "@z/ndarray";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { bloscCompress } from "../src/blosc/compress.js";
import { decodeBloscFrame } from "../src/blosc/decompress.js";
import { readBloscHeader } from "../src/blosc/header.js";
import { DecodeError } from "../src/errors.js";

const RUNS = Number(process.env.PROPERTY_RUNS ?? 150);
const simd = await loadSimdKernels();

/** The most a decode in these tests may produce; corrupt headers claiming more are refused. */
const MAX_SIZE = 1 << 22;

type Outcome = { bytes: Uint8Array } | { error: string; message: string };

/** Runs `use` with the SIMD path on or off, restoring it after. */
function onPath<T>(on: boolean, use: () => T): T {
  useCompressionPaths({ simd: on });
  try {
    return use();
  } finally {
    useCompressionPaths({ simd: true });
  }
}

/** What decoding `frame` gives: its bytes, or the error's class and message. */
function outcome(decode: () => Uint8Array | Promise<Uint8Array>): Outcome {
  try {
    const bytes = decode();
    if (bytes instanceof Promise) throw new Error("a synchronous frame decoded asynchronously");
    return { bytes: Uint8Array.from(bytes) };
  } catch (error) {
    return { error: (error as Error).constructor.name, message: (error as Error).message };
  }
}

function sameOutcome(actual: Outcome, expected: Outcome, label: string): void {
  if ("bytes" in expected && "bytes" in actual) {
    expect(Buffer.compare(actual.bytes, expected.bytes), label).toBe(0);
  } else {
    expect(actual, label).toEqual(expected);
  }
}

/** A view of `n` bytes at `offset` of a SharedArrayBuffer full of `fill`. */
function sharedView(n: number, offset: number, fill: number): Uint8Array {
  const view = new Uint8Array(new SharedArrayBuffer(n + offset + 5), offset, n);
  view.fill(fill);
  return view;
}

/** Bytes of several kinds: runs, smooth float32 numbers, runs with noise, noise. */
const dataArb = fc
  .record({
    n: fc.oneof(
      { arbitrary: fc.integer({ min: 0, max: 600 }), weight: 1 },
      { arbitrary: fc.integer({ min: 0, max: 70_000 }), weight: 3 },
    ),
    seed: fc.integer(),
    kind: fc.constantFrom("runs", "floats", "floats", "mixed", "noise"),
  })
  .map(({ n, seed, kind }) => {
    const out = new Uint8Array(n);
    const floats = new DataView(out.buffer);
    let x = seed >>> 0 || 1;
    let v = 0;
    for (let i = 0; i < n; i++) {
      x = (Math.imul(x, 1103515245) + 12345) >>> 0;
      if (kind === "floats") {
        if (i % 4 === 0 && i + 4 <= n)
          floats.setFloat32(i, Math.round(Math.sin(i / 800) * 400 + (x >>> 30)) / 8, true);
        continue;
      }
      if (x >>> 24 < 8) v = x & 0x1f;
      out[i] = kind === "noise" || (kind === "mixed" && (x & 0xff) < 16) ? x >>> 24 : v;
    }
    return out;
  });

/** Frames our encoder writes with the compressors the module decodes (the frame to await). */
const frameArb = fc
  .record({
    data: dataArb,
    cname: fc.constantFrom("lz4", "lz4hc", "blosclz") as fc.Arbitrary<"lz4" | "lz4hc" | "blosclz">,
    clevel: fc.oneof(
      { arbitrary: fc.integer({ min: 1, max: 9 }), weight: 5 },
      { arbitrary: fc.constant(0), weight: 1 },
    ),
    shuffle: fc.constantFrom(0, 1, 2) as fc.Arbitrary<0 | 1 | 2>,
    typesize: fc.oneof(fc.integer({ min: 1, max: 16 }), fc.integer({ min: 17, max: 40 })),
    blocksize: fc.oneof(fc.constant(0), fc.integer({ min: 128, max: 9000 })),
  })
  .map(({ data, ...settings }) => ({ data, frame: bloscCompress(data, settings) }));

/** Byte ranges of `n` bytes, some empty, some spanning blocks. */
function rangesArb(n: number): fc.Arbitrary<IndexRange[]> {
  return fc.array(
    fc
      .tuple(fc.integer({ min: 0, max: n }), fc.integer({ min: 0, max: n }))
      .map(([a, b]): IndexRange => (a <= b ? [a, b] : [b, a])),
    { minLength: 1, maxLength: 4 },
  );
}

/** Every block index of a frame whose header is sound. */
function allBlocks(frame: Uint8Array): number[] {
  const { nbytes, blocksize } = readBloscHeader(frame);
  return Array.from({ length: Math.ceil(nbytes / blocksize) }, (_, j) => j);
}

/** Whether the module is meant to decode `frame` (what decodeBloscFrame hands it). */
function forModule(frame: Uint8Array): boolean {
  const header = readBloscHeader(frame);
  return (
    !header.memcpyed &&
    header.nbytes > 0 &&
    (header.compressor === "lz4" || header.compressor === "blosclz")
  );
}

it("the SIMD kernels load where the engine has WebAssembly SIMD", () => {
  expect(simd !== undefined).toBe(wasmSimdSupported());
});

describe.runIf(simd)("Blosc frames decoded in the SIMD module", () => {
  it("give the JavaScript block loop's bytes, and the module decodes them itself", async () => {
    let inModule = 0;
    await fc.assert(
      fc.asyncProperty(frameArb, async (made) => {
        const { data } = made;
        const frame = await made.frame;
        const n = data.length;
        const expected = onPath(false, () =>
          outcome(() => decodeBloscFrame(frame, { maxSize: n })),
        );
        expect("bytes" in expected && Buffer.compare(expected.bytes, data)).toBe(0);
        const actual = outcome(() => decodeBloscFrame(frame, { maxSize: n, expectedSize: n }));
        sameOutcome(actual, expected, "whole frame");
        if (forModule(frame)) {
          const direct = simd!.bloscDecodeBlocks(frame, allBlocks(frame));
          expect(direct).toBeInstanceOf(Uint8Array);
          expect(Buffer.compare(direct as Uint8Array, data)).toBe(0);
          inModule++;
        }
      }),
      { numRuns: RUNS },
    );
    // Many frames are compressed ones (clevel 0, short or incompressible data store them raw).
    expect(inModule).toBeGreaterThan(RUNS / 4);
  });

  it("decode block ranges into a shared buffer as the JavaScript path does, untouched blocks kept", async () => {
    await fc.assert(
      fc.asyncProperty(
        frameArb.chain((made) => fc.tuple(fc.constant(made), rangesArb(made.data.length))),
        fc.integer({ min: 0, max: 7 }),
        fc.integer({ min: 0, max: 255 }),
        async ([made, ranges], offset, fill) => {
          const { data } = made;
          const frame = await made.frame;
          const n = data.length;
          const run = () => {
            const into = sharedView(n, offset, fill);
            const result = outcome(() => decodeBloscFrame(frame, { maxSize: n, ranges, into }));
            if ("bytes" in result) expect(Buffer.compare(result.bytes, into)).toBe(0);
            const fresh = outcome(() => decodeBloscFrame(frame, { maxSize: n, ranges }));
            return [result, fresh];
          };
          const [expectedInto, expectedFresh] = onPath(false, run);
          const [actualInto, actualFresh] = run();
          sameOutcome(actualInto, expectedInto, `into ${JSON.stringify(ranges)}`);
          sameOutcome(actualFresh, expectedFresh, `new buffer ${JSON.stringify(ranges)}`);
          // Every byte in a range is the data's.
          if ("bytes" in actualInto)
            for (const [b, e] of ranges)
              expect(Buffer.compare(actualInto.bytes.subarray(b, e), data.subarray(b, e))).toBe(0);
        },
      ),
      { numRuns: RUNS },
    );
  });

  it("reject corrupt frames with the JavaScript path's error, and accept what it accepts", async () => {
    let rejected = 0;
    let accepted = 0;
    await fc.assert(
      fc.asyncProperty(
        frameArb,
        fc.array(fc.tuple(fc.nat(), fc.nat(255), fc.boolean()), { minLength: 1, maxLength: 3 }),
        fc.option(fc.nat(), { nil: undefined }),
        async (made, edits, cut) => {
          const valid = await made.frame;
          const frame = Uint8Array.from(valid);
          // Most edits hit the header, the block table and the first stream sizes.
          for (const [at, value, near] of edits) {
            const span = near ? Math.min(frame.length, 64) : frame.length;
            if (span > 0) frame[at % span] = value;
          }
          const corrupt = cut === undefined ? frame : frame.subarray(0, cut % (frame.length + 1));
          const decode = () => decodeBloscFrame(corrupt, { maxSize: MAX_SIZE });
          const expected = onPath(false, () => outcome(decode));
          sameOutcome(outcome(decode), expected, "corrupt frame");
          if ("error" in expected) {
            rejected++;
            expect(expected.error).toBe(DecodeError.name);
          }
          // The module on its own: it decodes exactly the frames the JavaScript path accepts.
          if (corrupt.length < 16 || !forModule(corrupt)) return;
          const header = readBloscHeader(corrupt);
          if (header.nbytes > MAX_SIZE || header.blocksize <= 0) return;
          const blocks = allBlocks(corrupt);
          const direct = simd!.bloscDecodeBlocks(
            corrupt.subarray(0, Math.max(0, header.cbytes)),
            blocks,
          );
          if ("bytes" in expected) {
            accepted++;
            expect(direct).toBeInstanceOf(Uint8Array);
            expect(Buffer.compare(direct as Uint8Array, expected.bytes)).toBe(0);
          } else {
            expect(typeof direct).toBe("number");
          }
        },
      ),
      { numRuns: 3 * RUNS },
    );
    expect(rejected).toBeGreaterThan(0);
    expect(accepted).toBeGreaterThan(0);
  });
});

const PYTHON = "/usr/bin/python3";
const python =
  existsSync(PYTHON) && spawnSync(PYTHON, ["-c", "import numcodecs.blosc"]).status === 0;
if (!python) console.warn(`[blosc frame SIMD] c-blosc frames SKIPPED: ${PYTHON} not found`);

/** LZ4 and BloscLZ frames c-blosc writes through numcodecs, blocks stored out of order. */
function numcodecsFrames(): { label: string; frame: Uint8Array }[] {
  const script = `
import json, sys, base64, numpy as np, numcodecs
from numcodecs import blosc
blosc.set_nthreads(4)
out = []
rng = np.random.default_rng(11)
for cname in ["lz4", "lz4hc", "blosclz"]:
    for shuffle in [0, 1, 2]:
        for dtype, blocksize, n in [("u1", 0, 70001), ("<u2", 2048, 40000), ("<f4", 0, 262144),
                                    ("<f4", 4096, 30001), ("<f8", 1000, 9000), ("<c16", 0, 5000),
                                    ("S3", 300, 7000)]:
            x = np.sin(np.arange(n) / 40) * 1000 + rng.integers(0, 4, n)
            x = x.astype("S3") if dtype == "S3" else x.astype(dtype)
            for clevel in [1, 5, 9]:
                codec = numcodecs.Blosc(cname=cname, clevel=clevel, shuffle=shuffle, blocksize=blocksize)
                out.append({"label": f"{cname} clevel {clevel} shuffle {shuffle} {dtype} {blocksize}",
                            "frame": base64.b64encode(codec.encode(x)).decode()})
json.dump(out, sys.stdout)
`;
  const run = spawnSync(PYTHON, ["-c", script], { maxBuffer: 1 << 28, encoding: "utf8" });
  if (run.status !== 0) throw new Error(run.stderr);
  return (JSON.parse(run.stdout) as { label: string; frame: string }[]).map((c) => ({
    label: c.label,
    frame: new Uint8Array(Buffer.from(c.frame, "base64")),
  }));
}

describe.runIf(simd && python)("frames c-blosc wrote, decoded in the SIMD module", () => {
  it("give the JavaScript path's bytes, whole and in block ranges into a shared buffer", () => {
    const frames = numcodecsFrames();
    expect(frames.length).toBe(3 * 3 * 7 * 3);
    let inModule = 0;
    for (const { label, frame } of frames) {
      const n = readBloscHeader(frame).nbytes;
      const expected = onPath(false, () => outcome(() => decodeBloscFrame(frame, { maxSize: n })));
      expect("bytes" in expected, label).toBe(true);
      sameOutcome(
        outcome(() => decodeBloscFrame(frame, { maxSize: n })),
        expected,
        label,
      );
      if (forModule(frame)) {
        const direct = simd!.bloscDecodeBlocks(frame, allBlocks(frame));
        expect(direct, label).toBeInstanceOf(Uint8Array);
        sameOutcome({ bytes: direct as Uint8Array }, expected, label);
        inModule++;
      }
      for (const ranges of fc.sample(rangesArb(n), { numRuns: 3, seed: n })) {
        const run = () => {
          const into = sharedView(n, 5, 0x3c);
          decodeBloscFrame(frame, { maxSize: n, ranges, into });
          return { bytes: Uint8Array.from(into) };
        };
        sameOutcome(run(), onPath(false, run), `${label} ${JSON.stringify(ranges)}`);
      }
    }
    expect(inModule).toBeGreaterThan(frames.length / 2);
  });
});
