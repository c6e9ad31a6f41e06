import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { xxhash32 } from "@z/compression/xxhash";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { DecodeError, decodeLz4Frame, encodeLz4Frame } from "../src/index.js";

// Interop runs the reference implementation, the `lz4` command line tool (liblz4), as a process.
const dir = mkdtempSync(join(tmpdir(), "lz4-frame-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function lz4Cli(args: string[], input: Uint8Array): Uint8Array {
  const inPath = join(dir, "in");
  const outPath = join(dir, "out");
  writeFileSync(inPath, input);
  execFileSync("lz4", [...args, "-f", "-qq", inPath, outPath]);
  return new Uint8Array(readFileSync(outPath));
}

function sample(n: number, seed: number): Uint8Array {
  // Compressible but not trivial: runs, a repeating phrase and noise.
  const out = new Uint8Array(n);
  let s = seed;
  for (let i = 0; i < n; i++) {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    out[i] = i % 97 < 40 ? (i % 13) * 7 : i % 97 < 60 ? 0 : s >>> 24;
  }
  return out;
}

describe("xxhash32", () => {
  it("matches the reference values of XXH32 with seed 0", () => {
    const text = (s: string) => new TextEncoder().encode(s);
    expect(xxhash32(new Uint8Array())).toBe(0x02cc5d05);
    expect(xxhash32(text("a"))).toBe(0x550d7456);
    expect(xxhash32(text("abc"))).toBe(0x32d153ff);
    expect(xxhash32(text("Nobody inspects the spammish repetition"))).toBe(0xe2293b2f);
  });
});

describe("LZ4 frame", () => {
  const sizes = [0, 1, 15, 1000, 70_000, 300_000];

  it.each(sizes)("reads what the lz4 tool writes, with every flag combination (%i bytes)", (n) => {
    const data = sample(n, n + 1);
    for (const args of [
      [],
      ["-BD"], // linked blocks: matches reach into earlier blocks
      ["-B4", "--content-size"],
      ["-B4", "-BD", "--no-frame-crc"],
      ["-B5", "-BX"], // block checksums
      ["-9", "-B6"],
    ]) {
      const frame = lz4Cli(["-z", ...args], data);
      expect(decodeLz4Frame(frame, { maxSize: 1 << 24 }), args.join(" ")).toEqual(data);
      expect(decodeLz4Frame(frame, { expectedSize: n, maxSize: 1 << 24 })).toEqual(data);
    }
  });

  it.each(sizes)("writes what the lz4 tool reads (%i bytes)", async (n) => {
    const data = sample(n, 7 * n + 3);
    const frame = await encodeLz4Frame(data);
    expect(lz4Cli(["-d"], frame)).toEqual(data);
    if (n >= 1000) expect(frame.length).toBeLessThan(n);
  });

  it("stores an incompressible block and splits at 4 MiB", async () => {
    const noise = new Uint8Array(5 << 20);
    let s = 2463534242;
    for (let i = 0; i < noise.length; i++) {
      s ^= s << 13;
      s ^= s >>> 17;
      s ^= s << 5;
      noise[i] = s >>> 24;
    }
    const frame = await encodeLz4Frame(noise);
    expect(frame.length).toBeGreaterThan(noise.length); // stored: 4 + 4 bytes of block sizes more
    // (Buffer.equals: a deep equality over 5 MiB is slow.)
    expect(Buffer.from(lz4Cli(["-d"], frame)).equals(noise)).toBe(true);
    expect(Buffer.from(decodeLz4Frame(frame, { maxSize: 6 << 20 })).equals(noise)).toBe(true);
  });

  it("round-trips any bytes (property)", async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 3000 }), fc.nat(40), async (data, repeat) => {
        const input = new Uint8Array(data.length * (1 + (repeat % 4)));
        for (let i = 0; i < input.length; i++) input[i] = data[i % data.length];
        const frame = await encodeLz4Frame(input);
        expect(decodeLz4Frame(frame, { maxSize: input.length })).toEqual(input);
      }),
      { numRuns: 60 },
    );
  });

  it("reads concatenated frames and skips skippable frames", async () => {
    const a = sample(500, 1);
    const b = sample(800, 2);
    const skippable = new Uint8Array([0x5a, 0x2a, 0x4d, 0x18, 3, 0, 0, 0, 9, 9, 9]);
    const joined = concat(await encodeLz4Frame(a), skippable, lz4Cli(["-z"], b));
    expect(decodeLz4Frame(joined, { maxSize: 2000 })).toEqual(concat(a, b));
  });

  it("refuses hostile and corrupt frames with a DecodeError, never allocating past the limit", async () => {
    const data = sample(100_000, 5);
    const frame = await encodeLz4Frame(data);
    // The declared content size beyond the limit fails before any block is decoded.
    expect(() => decodeLz4Frame(frame, { maxSize: 99_999 })).toThrow(/more than the limit/);
    expect(() => decodeLz4Frame(frame, { expectedSize: 100_001, maxSize: 1 << 20 })).toThrow(
      DecodeError,
    );
    // Without a content size, a frame that decodes past the limit stops at the limit.
    const noSize = lz4Cli(["-z"], data);
    expect(() => decodeLz4Frame(noSize, { maxSize: 50_000 })).toThrow(DecodeError);
    // Every truncation and many byte flips fail cleanly (or, rarely, decode to other bytes).
    for (let n = 0; n < frame.length; n += 97) {
      expect(() => decodeLz4Frame(frame.subarray(0, n), { maxSize: 1 << 20 })).toThrow(DecodeError);
    }
    const checked = lz4Cli(["-z", "-BX"], data);
    for (let k = 0; k < 300; k++) {
      const bad = checked.slice();
      const at = (k * 7919) % bad.length;
      bad[at] ^= 1 << (k % 8);
      expect(() => decodeLz4Frame(bad, { maxSize: 200_000 }), `flip at ${at}`).toThrow(DecodeError);
    }
    expect(() => decodeLz4Frame(new Uint8Array([1, 2, 3, 4]), { maxSize: 10 })).toThrow(
      /not an LZ4 frame/,
    );
  });
});

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
