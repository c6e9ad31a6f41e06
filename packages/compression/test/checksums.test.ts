// The checksums and hashes against simple reference models (BigInt or textbook loops), published
// check values and node:zlib's CRC-32.
import { crc32 as zlibCrc32 } from "node:zlib";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { adler32, crc32, crc32c, fletcher32 } from "../src/checksums.js";
import { xxhash32, xxhash64 } from "../src/xxhash.js";
import { noise } from "./samples.js";

const RUNS = Number(process.env.PROPERTY_RUNS ?? 200);
const ascii = (text: string) => new TextEncoder().encode(text);

/** A reflected CRC-32, bit by bit. */
function referenceCrc(polynomial: number, bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ polynomial : c >>> 1;
  }
  return ~c >>> 0;
}

/** Adler-32 with a modulo after every byte. */
function referenceAdler32(bytes: Uint8Array): number {
  let a = 1;
  let b = 0;
  for (const x of bytes) {
    a = (a + x) % 65521;
    b = (b + a) % 65521;
  }
  return ((b << 16) | a) >>> 0;
}

/** Fletcher-32 over big-endian 16-bit words (odd last byte as a high byte), folded every word. */
function referenceFletcher32(bytes: Uint8Array): number {
  let s1 = 0xffff;
  let s2 = 0xffff;
  const fold = (x: number) => (x & 0xffff) + (x >>> 16);
  for (let i = 0; i < bytes.length; i += 2) {
    const word = (bytes[i] << 8) | (i + 1 < bytes.length ? bytes[i + 1] : 0);
    s1 = fold(s1 + word);
    s2 = fold(s2 + s1);
  }
  return ((fold(s2) << 16) | fold(s1)) >>> 0;
}

const M32 = 0xffffffffn;
const [P1, P2, P3, P4, P5] = [0x9e3779b1n, 0x85ebca77n, 0xc2b2ae3dn, 0x27d4eb2fn, 0x165667b1n];
const rotl32 = (x: bigint, r: bigint) => ((x << r) | (x >> (32n - r))) & M32;
const round32 = (acc: bigint, lane: bigint) => (rotl32((acc + lane * P2) & M32, 13n) * P1) & M32;

/** XXH32 (seed 0) in BigInt arithmetic, straight from the algorithm's description. */
function referenceXxh32(data: Uint8Array): number {
  const view = new DataView(data.buffer, data.byteOffset, data.length);
  const n = data.length;
  let p = 0;
  let h: bigint;
  if (n >= 16) {
    const v = [(P1 + P2) & M32, P2, 0n, (0n - P1) & M32];
    for (; p + 16 <= n; p += 16)
      for (let k = 0; k < 4; k++) v[k] = round32(v[k], BigInt(view.getUint32(p + 4 * k, true)));
    h = (rotl32(v[0], 1n) + rotl32(v[1], 7n) + rotl32(v[2], 12n) + rotl32(v[3], 18n)) & M32;
  } else {
    h = P5;
  }
  h = (h + BigInt(n)) & M32;
  for (; p + 4 <= n; p += 4)
    h = (rotl32((h + BigInt(view.getUint32(p, true)) * P3) & M32, 17n) * P4) & M32;
  for (; p < n; p++) h = (rotl32((h + BigInt(data[p]) * P5) & M32, 11n) * P1) & M32;
  h ^= h >> 15n;
  h = (h * P2) & M32;
  h ^= h >> 13n;
  h = (h * P3) & M32;
  h ^= h >> 16n;
  return Number(h);
}

const M64 = (1n << 64n) - 1n;
const [X1, X2, X3, X4, X5] = [
  0x9e3779b185ebca87n,
  0xc2b2ae3d27d4eb4fn,
  0x165667b19e3779f9n,
  0x85ebca77c2b2ae63n,
  0x27d4eb2f165667c5n,
];
const rotl64 = (x: bigint, r: bigint) => ((x << r) | (x >> (64n - r))) & M64;
const round64 = (acc: bigint, input: bigint) => (rotl64((acc + input * X2) & M64, 31n) * X1) & M64;

/** XXH64 (seed 0) in BigInt arithmetic, straight from the algorithm's description. */
function referenceXxh64(data: Uint8Array): bigint {
  const view = new DataView(data.buffer, data.byteOffset, data.length);
  const n = data.length;
  let p = 0;
  let h: bigint;
  if (n >= 32) {
    const v = [(X1 + X2) & M64, X2, 0n, (0n - X1) & M64];
    for (; p + 32 <= n; p += 32)
      for (let k = 0; k < 4; k++) v[k] = round64(v[k], view.getBigUint64(p + 8 * k, true));
    h = (rotl64(v[0], 1n) + rotl64(v[1], 7n) + rotl64(v[2], 12n) + rotl64(v[3], 18n)) & M64;
    for (const x of v) h = ((h ^ round64(0n, x)) * X1 + X4) & M64;
  } else {
    h = X5;
  }
  h = (h + BigInt(n)) & M64;
  for (; p + 8 <= n; p += 8)
    h = (rotl64(h ^ round64(0n, view.getBigUint64(p, true)), 27n) * X1 + X4) & M64;
  if (p + 4 <= n) {
    h = (rotl64(h ^ ((BigInt(view.getUint32(p, true)) * X1) & M64), 23n) * X2 + X3) & M64;
    p += 4;
  }
  for (; p < n; p++) h = (rotl64(h ^ ((BigInt(data[p]) * X5) & M64), 11n) * X1) & M64;
  h ^= h >> 33n;
  h = (h * X2) & M64;
  h ^= h >> 29n;
  h = (h * X3) & M64;
  return h ^ (h >> 32n);
}

/** Any bytes, also as a view at an odd offset of a larger buffer (the word-at-a-time paths). */
const bytesArb = fc
  .tuple(fc.uint8Array({ maxLength: 600 }), fc.integer({ min: 0, max: 7 }))
  .map(([bytes, shift]) => {
    const buffer = new Uint8Array(bytes.length + shift);
    buffer.set(bytes, shift);
    return buffer.subarray(shift);
  });

describe("CRC-32, CRC-32C, Adler-32, Fletcher-32", () => {
  it("give the published check values of the ASCII digits 1..9", () => {
    const digits = ascii("123456789");
    expect(crc32(digits)).toBe(0xcbf43926);
    expect(crc32c(digits)).toBe(0xe3069283);
    expect(adler32(digits)).toBe(0x091e01de);
    expect(adler32(ascii("Wikipedia"))).toBe(0x11e60398);
    expect(crc32(new Uint8Array(0))).toBe(0);
    expect(crc32c(new Uint8Array(0))).toBe(0);
    expect(adler32(new Uint8Array(0))).toBe(1);
  });

  it("agree with bit-by-bit and textbook models at any alignment, and continue a running sum", () => {
    fc.assert(
      fc.property(bytesArb, bytesArb, (a, b) => {
        const both = new Uint8Array([...a, ...b]);
        expect(crc32(a)).toBe(zlibCrc32(a));
        expect(crc32(a)).toBe(referenceCrc(0xedb88320, a));
        expect(crc32c(a)).toBe(referenceCrc(0x82f63b78, a));
        expect(adler32(a)).toBe(referenceAdler32(a));
        expect(fletcher32(a)).toBe(referenceFletcher32(a));
        expect(crc32(b, crc32(a))).toBe(crc32(both));
        expect(crc32c(b, crc32c(a))).toBe(crc32c(both));
        expect(adler32(b, adler32(a))).toBe(adler32(both));
      }),
      { numRuns: RUNS },
    );
  });

  it("Adler-32 and Fletcher-32 stay exact past their blocks of deferred modulo", () => {
    const long = new Uint8Array(100_000).fill(0xff);
    expect(adler32(long)).toBe(referenceAdler32(long));
    expect(fletcher32(long)).toBe(referenceFletcher32(long));
    const odd = long.subarray(0, 99_999);
    expect(fletcher32(odd)).toBe(referenceFletcher32(odd));
  });
});

describe("xxHash", () => {
  it("XXH32 gives the reference values and matches a BigInt model for every tail length", () => {
    expect(xxhash32(new Uint8Array(0))).toBe(0x02cc5d05);
    for (let n = 0; n < 100; n++) {
      const data = noise(n, n + 1);
      expect(xxhash32(data), `length ${n}`).toBe(referenceXxh32(data));
    }
    fc.assert(
      fc.property(bytesArb, (data) => {
        expect(xxhash32(data)).toBe(referenceXxh32(data));
      }),
      { numRuns: RUNS },
    );
  });

  it("computes XXH64 as the reference algorithm does, for every tail length", () => {
    // XXH64 of empty input with seed 0 (xxHash's reference value), then a BigInt transcription
    // of the algorithm (XXH64 spec) against the uint32-pair implementation. The golden tests
    // check the checksums against the ones libzstd wrote.
    expect(xxhash64(new Uint8Array(0))).toEqual([0xef46db37, 0x51d8e999]);
    for (let n = 0; n < 200; n++) {
      const data = noise(n, n + 1);
      const [high, low] = xxhash64(data);
      expect(((BigInt(high) << 32n) | BigInt(low)).toString(16), `length ${n}`).toBe(
        referenceXxh64(data).toString(16),
      );
    }
  });
});
