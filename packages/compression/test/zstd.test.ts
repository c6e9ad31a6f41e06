// zstd on every path this Node has (node:zlib's libzstd from Node 22.15, and libzstd compiled to
// WebAssembly, which `useCompressionPaths({ native: false })` forces): round trips, checksums,
// and bounded decoding of declared, undeclared and hostile sizes; then both paths side by side,
// which must give the same bytes and reject the same truncated and wrongly sized data (a changed
// byte may be caught by one libzstd release and not the other when the frame has no checksum).
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DecompressionError } from "../src/errors.js";
import { useCompressionPaths } from "../src/paths.js";
import {
  withContentSize,
  zstdCompress,
  zstdDecompress,
  zstdIsNative,
  zstdLayout,
} from "../src/zstd.js";
import { rejection } from "./samples.js";

const hasNative = zstdIsNative();
if (!hasNative) console.warn(`[zstd] Node ${process.version} has no native zstd: WebAssembly only`);
/** The paths to run the suite on: the native one only where node:zlib has zstd. */
const PATHS = hasNative ? (["native", "WebAssembly"] as const) : (["WebAssembly"] as const);

/** Runs `body` with the native path allowed or not, restoring the default after. */
async function onPath<R>(native: boolean, body: () => Promise<R>): Promise<R> {
  useCompressionPaths({ native });
  try {
    return await body();
  } finally {
    useCompressionPaths({ native: true });
  }
}

/** Compressible bytes. */
function bytes(n: number, seed = 1): Uint8Array {
  const out = new Uint8Array(n);
  let x = seed;
  for (let i = 0; i < n; i++) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    out[i] = ((i >> 6) % 11) ^ (x >>> 30);
  }
  return out;
}

describe.each(PATHS)("zstd on the %s path", (path) => {
  beforeAll(() => useCompressionPaths({ native: path === "native" }));
  afterAll(() => useCompressionPaths({ native: true }));

  it(`runs ${path === "native" ? "natively" : "in WebAssembly"}`, () => {
    expect(zstdIsNative()).toBe(path === "native");
  });

  it("round-trips any data at any level, with and without a content checksum", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 100_000 }),
        fc.integer({ min: -3, max: 19 }),
        fc.boolean(),
        async (n, level, checksum) => {
          const data = bytes(n, n + 1);
          const frame = await zstdCompress(data, level, checksum);
          expect(Boolean(frame[4] & 0x04)).toBe(checksum);
          const exact = await zstdDecompress(frame, { maxSize: n, expectedSize: n });
          expect(Buffer.compare(exact, data)).toBe(0);
          const bounded = await zstdDecompress(frame, { maxSize: n + 100 });
          expect(Buffer.compare(bounded, data)).toBe(0);
        },
      ),
      { numRuns: 25 },
    );
  });

  it("refuses a declared size past the bound before decoding, with the bound as `limit`", async () => {
    const frame = await zstdCompress(bytes(50_000), 3);
    const error = await rejection(() => zstdDecompress(frame, { maxSize: 49_999 }));
    expect(error.limit).toBe(49_999);
    expect(error.message).toMatch(/declares 50000 bytes/);
  });

  it("bounds a frame that does not declare its size, by the exact size or its block headers", async () => {
    const data = bytes(300_000);
    const frame = await zstdCompress(data, 3);
    const [f] = (zstdLayout(frame) as { frames: import("../src/zstd.js").ZstdFrame[] }).frames;
    // Drop the declared size: a copy of the frame whose descriptor says nothing about it.
    const header = frame.subarray(0, f.headerEnd);
    const fcsBytes = [0, 2, 4, 8][header[4] >> 6] || (header[4] & 0x20 ? 1 : 0);
    expect(fcsBytes).toBeGreaterThan(0);
    const stripped = new Uint8Array(frame.length - fcsBytes + (header[4] & 0x20 ? 1 : 0));
    stripped.set(frame.subarray(0, 4));
    let at = 4;
    const singleSegment = header[4] & 0x20;
    stripped[at++] = header[4] & 0x1f & ~0x20; // no size, not single-segment
    // A window large enough for the whole frame (2^19 bytes).
    if (singleSegment) stripped[at++] = (19 - 10) << 3;
    else stripped[at++] = header[5];
    stripped.set(frame.subarray(f.headerEnd), at);
    const [g] = (zstdLayout(stripped) as { frames: import("../src/zstd.js").ZstdFrame[] }).frames;
    expect(g.contentSize).toBeUndefined();
    const exact = await zstdDecompress(stripped, { maxSize: 1 << 20, expectedSize: data.length });
    expect(Buffer.compare(exact, data)).toBe(0);
    await rejection(() =>
      zstdDecompress(stripped, { maxSize: 1 << 20, expectedSize: data.length - 1 }),
    );
    // Without the exact size, its blocks could decode to more than 1000 bytes: refused.
    const refused = await rejection(() => zstdDecompress(stripped, { maxSize: 1000 }));
    expect(refused.limit).toBe(1000);
    const declared = zstdLayout(withContentSize(stripped, g, data.length));
    expect("frames" in declared && declared.frames[0].contentSize).toBe(data.length);
  });

  it("rejects every truncation, and corruption is an error or data of the right size", async () => {
    const data = bytes(30_000);
    const frame = await zstdCompress(data, 3, true);
    for (let cut = 0; cut < frame.length; cut += cut < 64 ? 1 : 97)
      await rejection(() => zstdDecompress(frame.subarray(0, cut), { maxSize: data.length }));
    for (let at = 0; at < frame.length; at += 7) {
      const bad = frame.slice();
      bad[at] ^= 0x21;
      try {
        const out = await zstdDecompress(bad, { maxSize: data.length, expectedSize: data.length });
        expect(out.length).toBe(data.length);
      } catch (error) {
        expect(error).toBeInstanceOf(DecompressionError);
      }
    }
  });
});

/** What decoding gave: the bytes, or the facts of the DecompressionError it threw. */
async function outcome(decode: () => Promise<Uint8Array>) {
  try {
    return { bytes: Buffer.from(await decode()).toString("hex") };
  } catch (error) {
    expect(error).toBeInstanceOf(DecompressionError);
    const { format, limit } = error as DecompressionError;
    return { error: { format, limit } };
  }
}

describe.runIf(hasNative)("zstd: the native and WebAssembly paths agree", () => {
  it("on frames either path writes, intact, cut short, with a byte changed or a wrong size", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 40_000 }),
        fc.integer({ min: 1, max: 19 }),
        fc.boolean(),
        fc.boolean(),
        fc.oneof(
          fc.constant({ kind: "intact" as const }),
          fc.record({ kind: fc.constant("flip" as const), at: fc.nat(), bit: fc.nat(7) }),
          fc.record({ kind: fc.constant("cut" as const), at: fc.nat() }),
          fc.record({ kind: fc.constant("size" as const), delta: fc.integer({ min: -3, max: 3 }) }),
        ),
        async (n, level, checksum, nativeWrites, change) => {
          const data = bytes(n, n * 3 + level);
          const frame = await onPath(nativeWrites, () => zstdCompress(data, level, checksum));
          let input = frame;
          let expectedSize = n;
          if (change.kind === "flip") {
            input = frame.slice();
            input[change.at % frame.length] ^= 1 << change.bit;
          } else if (change.kind === "cut") {
            input = frame.subarray(0, change.at % frame.length);
          } else if (change.kind === "size") {
            expectedSize = Math.max(0, n + change.delta);
          }
          const options = { maxSize: n + 16, expectedSize };
          const native = await onPath(true, () => outcome(() => zstdDecompress(input, options)));
          const wasm = await onPath(false, () => outcome(() => zstdDecompress(input, options)));
          if (change.kind === "flip") {
            // Node's libzstd and the WebAssembly one are different releases, and a changed byte
            // in a block without a checksum can make one of them fail and the other return other
            // bytes of the right size. What both must do: fail, or give exactly n bytes; and with
            // a checksum, bytes only when they are the original ones.
            const original = Buffer.from(data).toString("hex");
            for (const got of [native, wasm]) {
              if ("error" in got) continue;
              expect(got.bytes.length).toBe(2 * n);
              if (checksum) expect(got.bytes).toBe(original);
            }
          } else expect(native).toEqual(wasm);
          if (change.kind === "intact" && expectedSize === n)
            expect(native).toEqual({ bytes: Buffer.from(data).toString("hex") });
        },
      ),
      { numRuns: 60 },
    );
  });

  it("each path reads what the other writes, at the levels both reach", async () => {
    const data = bytes(200_000, 7);
    for (const level of [1, 3, 9]) {
      const native = await onPath(true, () => zstdCompress(data, level, true));
      const wasm = await onPath(false, () => zstdCompress(data, level, true));
      const opts = { maxSize: data.length, expectedSize: data.length };
      const fromNative = await onPath(false, () => zstdDecompress(native, opts));
      const fromWasm = await onPath(true, () => zstdDecompress(wasm, opts));
      expect(Buffer.compare(fromNative, data)).toBe(0);
      expect(Buffer.compare(fromWasm, data)).toBe(0);
    }
  });
});
