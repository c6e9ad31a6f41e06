import { CodecConfigError, loadCodecsFor, resolveCodec } from "@z/codecs";
import { type JsonObject, loadDataTypesFor, resolveDataTypeV3 } from "@z/metadata";
import { isZarrError } from "@z/store-core";
import { describe, expect, it } from "vitest";

// The metadata parser gives integers beyond 2^53 as bigints. A codec configuration holding one
// where a string, small integer or list belongs must be refused with a CodecConfigError naming
// the value, not a TypeError from JSON.stringify (found by the fuzz suite).
const HUGE = 2n ** 64n;

const CASES: [string, JsonObject, string][] = [
  ["gzip", { level: HUGE }, "float32"],
  ["numcodecs.zlib", { level: HUGE }, "float32"],
  ["zstd", { level: 3, checksum: HUGE }, "float32"],
  ["numcodecs.lz4", { acceleration: HUGE }, "float32"],
  ["numcodecs.crc32", { location: HUGE }, "float32"],
  ["numcodecs.lzma", { format: HUGE }, "float32"],
  ["numcodecs.lzma", { format: 3, filters: [{ id: HUGE }] }, "float32"],
  ["blosc", { cname: HUGE, clevel: 5, shuffle: "shuffle", typesize: 4, blocksize: 0 }, "float32"],
  [
    "blosc",
    { cname: "lz4", clevel: HUGE, shuffle: "shuffle", typesize: 4, blocksize: 0 },
    "float32",
  ],
  ["blosc", { cname: "lz4", clevel: 5, shuffle: HUGE, typesize: 4, blocksize: 0 }, "float32"],
  [
    "blosc",
    { cname: "lz4", clevel: 5, shuffle: "shuffle", typesize: HUGE, blocksize: 0 },
    "float32",
  ],
  [
    "blosc",
    { cname: "lz4", clevel: 5, shuffle: "shuffle", typesize: 4, blocksize: HUGE },
    "float32",
  ],
  ["numcodecs.blosc", { cname: "lz4", clevel: 5, shuffle: HUGE, blocksize: 0 }, "float32"],
  ["numcodecs.delta", { dtype: HUGE }, "float64"],
  [
    "numcodecs.fixedscaleoffset",
    { dtype: "<f8", astype: "<i4", scale: HUGE, offset: 0 },
    "float64",
  ],
  ["numcodecs.fixedscaleoffset", { dtype: "<f8", astype: [HUGE], scale: 1, offset: 0 }, "float64"],
  ["numcodecs.quantize", { digits: 3, dtype: "<f8", astype: [HUGE] }, "float64"],
  ["numcodecs.bitround", { keepbits: HUGE }, "float32"],
  ["numcodecs.astype", { encode_dtype: HUGE, decode_dtype: "<f8" }, "float64"],
  ["numcodecs.categorize", { labels: [HUGE], dtype: "<U4" }, "float32"],
  ["numcodecs.categorize", { labels: ["a"], dtype: HUGE }, "float32"],
];

describe("codec configurations with integers beyond 2^53", () => {
  for (const [name, configuration, dtype] of CASES) {
    it(`${name} ${Object.keys(configuration).join(", ")}`, async () => {
      const dataType = resolveDataTypeV3(dtype);
      const spec = { shape: [4], dataType, fillValue: dataType.defaultFill };
      const entry = { name, configuration, mustUnderstand: true };
      // What opening an array loads before it builds the codecs its metadata names.
      await Promise.all([loadCodecsFor(entry), loadDataTypesFor(configuration)]);
      let error: unknown;
      try {
        resolveCodec(entry, { spec, zarrFormat: 3 });
      } catch (e) {
        error = e;
      }
      expect(isZarrError(error), String(error)).toBe(true);
      expect(error).toBeInstanceOf(CodecConfigError);
      expect((error as Error).message).toContain("18446744073709551616");
    });
  }
});
