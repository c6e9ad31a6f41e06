// Throughput of the compressors on a 1 MiB float32 chunk of smooth data. Not a test: run it with
//   pnpm vitest bench --run packages/codecs/test/compressors.bench.ts
// Every task processes exactly 1 MiB of decoded data, so its "hz" column reads as MiB/s (and
// 1000 / "min" as the best-case MiB/s, the steadier figure on a busy machine). Two chunks: a
// full-precision sine (float32 mantissas are noise to a compressor: barely compressible) and the
// same rounded to 0.01 (low mantissa bits zero: what quantized or shuffled data looks like).
import { gunzipSync, gzipSync, inflateSync } from "node:zlib";
import { Checksum32Codec, GzipCodec, Lz4Codec, ZlibCodec, ZstdCodec } from "@z/codecs";
import {
  gunzipSync as fflateGunzip,
  gzipSync as fflateGzip,
  unzlibSync as fflateUnzlib,
} from "fflate";
import { default as LZ4 } from "numcodecs/lz4";
import { deflateRaw, ungzip } from "pako";
import { bench, describe } from "vitest";
// The browser inflate of @z/compression itself (its "#inflate" loads it on first use in browsers).
import * as browser from "../../compression/src/platform/inflate-impl.browser.js";

function chunk(round: boolean): Uint8Array {
  const values = new Float32Array(1 << 18);
  for (let i = 0; i < values.length; i++) {
    const v = Math.sin(i / 1000) * 100 + Math.cos(i / 3300) * 20;
    values[i] = round ? Math.round(v * 100) / 100 : v;
  }
  return new Uint8Array(values.buffer);
}

for (const [label, data] of [
  ["sine", chunk(false)],
  ["sine rounded to 0.01", chunk(true)],
] as const) {
  const n = data.length;
  const exact = { expectedSize: n, maxSize: n };
  const gzip = new GzipCodec(5);
  const gzip1 = new GzipCodec(1);
  const gzipped = await gzip.encode(data);
  const zlib = new ZlibCodec(5);
  const zlibbed = await zlib.encode(data);
  const zstd = new ZstdCodec(0);
  const zstdChecked = new ZstdCodec(0, true);
  const zstdFrame = await zstd.encode(data);
  const zstdCheckedFrame = await zstdChecked.encode(data);
  const lz4 = new Lz4Codec(1);
  const lz4Block = await lz4.encode(data);
  const lz4Wasm = new LZ4(1);
  const ratio = (c: Uint8Array) => (n / c.length).toFixed(2);
  console.log(
    `[compressors.bench] ${label}: compression ratios gzip-5 ${ratio(gzipped)}, zlib-5 ${ratio(zlibbed)}, ` +
      `zstd-3 ${ratio(zstdFrame)}, lz4 ${ratio(lz4Block)}`,
  );

  describe(`${label}: gzip decode (level 5)`, () => {
    bench("GzipCodec (node:zlib gunzip)", () => void gzip.decode(gzipped, exact));
    bench("browser path, exact size (fflate)", () => void browser.gunzipBounded(gzipped, n, true));
    bench("browser path, bound only (pako)", () => void browser.gunzipBounded(gzipped, n, false));
    bench("node:zlib gunzipSync, default options", () => void gunzipSync(gzipped));
    bench("pako ungzip", () => void ungzip(gzipped));
    bench("fflate gunzipSync (no CRC check)", () => void fflateGunzip(gzipped));
  });

  describe(`${label}: gzip encode`, () => {
    bench("GzipCodec level 5 (pako, as Python drives zlib)", () => void gzip.encode(data));
    bench("GzipCodec level 1", () => void gzip1.encode(data));
    bench("pako deflateRaw level 5", () => void deflateRaw(data, { level: 5 }));
    bench(
      "node:zlib gzipSync level 5 (not numcodecs' bytes)",
      () => void gzipSync(data, { level: 5 }),
    );
    bench(
      "fflate gzipSync level 5 (not numcodecs' bytes)",
      () => void fflateGzip(data, { level: 5 }),
    );
  });

  describe(`${label}: zlib (level 5)`, () => {
    bench("decode: ZlibCodec (node:zlib)", () => void zlib.decode(zlibbed, exact));
    bench(
      "decode: browser path, exact size (fflate)",
      () => void browser.unzlibBounded(zlibbed, n, true),
    );
    bench("decode: node:zlib inflateSync", () => void inflateSync(zlibbed));
    bench("decode: fflate unzlibSync (no Adler-32 check)", () => void fflateUnzlib(zlibbed));
    bench("encode: ZlibCodec (pako)", () => void zlib.encode(data));
  });

  describe(`${label}: zstd (level 0 = 3)`, () => {
    bench("decode", async () => void (await zstd.decode(zstdFrame, exact)));
    bench(
      "decode with checksum",
      async () => void (await zstdChecked.decode(zstdCheckedFrame, exact)),
    );
    bench("encode", async () => void (await zstd.encode(data)));
    bench("encode with checksum (XXH64 in JS)", async () => void (await zstdChecked.encode(data)));
  });

  describe(`${label}: lz4 (acceleration 1)`, () => {
    bench("decode: Lz4Codec (JS block decoder)", () => void lz4.decode(lz4Block, exact));
    bench("decode: numcodecs.js WASM", async () => void (await lz4Wasm.decode(lz4Block)));
    bench("encode: Lz4Codec (numcodecs.js WASM)", async () => void (await lz4.encode(data)));
  });

  if (label === "sine") {
    describe("checksums", () => {
      for (const kind of ["crc32", "crc32c", "adler32"] as const) {
        const codec = new Checksum32Codec(kind);
        const encoded = codec.encode(data);
        bench(`${kind} decode (verify)`, () => void codec.decode(encoded));
      }
    });
  }
}
