import {
  BLOSC_CNAMES,
  type BloscCname,
  bloscCompress,
  bloscDecompress,
  readBloscHeader,
} from "@z/codecs";
import { describe, expect, it } from "vitest";

/** Deterministic test data: a smooth signal with some noise, so every path (compressed, raw streams, memcpyed) occurs. */
function sample(n: number, seed: number, noise: number): Uint8Array {
  const out = new Uint8Array(n);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < n; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    const r = (x >>> 0) / 2 ** 32;
    out[i] = r < noise ? x & 0xff : (Math.floor(Math.sin(i / 97) * 40) + (i % 7) * 3) & 0xff;
  }
  return out;
}

async function roundTrip(
  data: Uint8Array,
  cname: BloscCname,
  shuffle: 0 | 1 | 2,
  typesize: number,
  clevel = 5,
  blocksize = 0,
) {
  const frame = await bloscCompress(data, { cname, clevel, shuffle, typesize, blocksize });
  const h = readBloscHeader(frame);
  expect(h.nbytes).toBe(data.length);
  expect(h.cbytes).toBe(frame.length);
  expect(h.typesize).toBe(typesize > 255 ? 1 : typesize);
  expect(frame.length).toBeLessThanOrEqual(data.length + 16);
  const out = await bloscDecompress(frame, { expectedSize: data.length, maxSize: data.length });
  expect(out.length).toBe(data.length);
  const same = Buffer.from(out.buffer, out.byteOffset, out.length).equals(
    Buffer.from(data.buffer, data.byteOffset, data.length),
  );
  expect(
    same,
    `${cname} shuffle ${shuffle} typesize ${typesize} clevel ${clevel} blocksize ${blocksize} n ${data.length}`,
  ).toBe(true);
  return frame;
}

const TYPESIZES = [1, 2, 3, 4, 7, 8, 16, 17];
const SIZES = [0, 1, 3, 127, 128, 129, 1000, 1003, 4099, 70001];

describe("blosc round trips", () => {
  for (const cname of BLOSC_CNAMES) {
    for (const shuffle of [0, 1, 2] as const) {
      it(`${cname} shuffle ${shuffle}: every type size and size, including ones not divisible by either`, async () => {
        for (const typesize of TYPESIZES) {
          for (const n of SIZES) {
            await roundTrip(sample(n, n * 31 + typesize, 0.05), cname, shuffle, typesize);
          }
        }
      });
    }
  }

  it("splits blocks into one stream per byte where c-blosc does, and decodes them", async () => {
    const data = sample(200000, 7, 0.02);
    for (const cname of ["blosclz", "lz4", "lz4hc", "snappy", "zlib"] as const) {
      const frame = await roundTrip(data, cname, 1, 4, 5);
      expect(readBloscHeader(frame).dontSplit, cname).toBe(false);
    }
    // c-blosc 1.21 never splits zstd blocks.
    expect(readBloscHeader(await roundTrip(data, "zstd", 1, 4, 5)).dontSplit).toBe(true);
    // Type sizes above 16 are never split.
    expect(readBloscHeader(await roundTrip(data, "lz4", 1, 17, 5)).dontSplit).toBe(true);
  });

  it("handles forced block sizes, leftover blocks and many blocks", async () => {
    const data = sample(100003, 11, 0.03);
    for (const cname of BLOSC_CNAMES) {
      for (const blocksize of [128, 256, 1000, 4096, 65536]) {
        for (const [shuffle, typesize] of [
          [0, 1],
          [1, 4],
          [2, 8],
          [1, 3],
        ] as const) {
          const frame = await roundTrip(data, cname, shuffle, typesize, 4, blocksize);
          const h = readBloscHeader(frame);
          if (!h.memcpyed) expect(Math.ceil(h.nbytes / h.blocksize)).toBeGreaterThan(1);
        }
      }
    }
  });

  it("round-trips every compression level", async () => {
    const data = sample(50000, 3, 0.1);
    for (const cname of BLOSC_CNAMES) {
      for (let clevel = 0; clevel <= 9; clevel++) await roundTrip(data, cname, 1, 2, clevel);
    }
  });

  it("stores incompressible data uncompressed, and type sizes above 255 as 1-byte streams", async () => {
    const noise = sample(30000, 99, 1);
    for (const cname of BLOSC_CNAMES) {
      const frame = await roundTrip(noise, cname, 1, 4, 9);
      expect(readBloscHeader(frame).memcpyed, cname).toBe(true);
    }
    await roundTrip(sample(5000, 5, 0.01), "lz4", 1, 300);
  });

  it("encodes empty input as a bare 16-byte header", async () => {
    const frame = await roundTrip(new Uint8Array(0), "lz4", 1, 4);
    expect(frame.length).toBe(16);
  });

  it("decodes views into larger buffers and returns views for uncompressed frames", async () => {
    const data = sample(5000, 8, 0.01);
    const frame = await bloscCompress(data, { cname: "zstd", clevel: 3, shuffle: 2, typesize: 4 });
    const padded = new Uint8Array(frame.length + 10);
    padded.set(frame, 7);
    const out = await bloscDecompress(padded.subarray(7, 7 + frame.length), {
      maxSize: data.length,
    });
    expect(Buffer.from(out).equals(Buffer.from(data))).toBe(true);
  });
});
