// Every codec this package registers, through the codec contract suite: round trips, honest
// encoded sizes, a decoder bounded by the chunk spec, typed errors for bad input.
import { type ChunkSpec, loadCodecs, registeredCodecs } from "@z/codecs";
import { type CodecContractOptions, chunkOf, describeCodecContract } from "@z/codecs/testing";
import { useCompressionPaths } from "@z/compression";
import { loadSimdKernels, simdKernels, wasmSimdSupported } from "@z/compression/internal";
import { zstdIsNative } from "@z/compression/zstd";
import {
  type JsonValue,
  loadDataTypesFor,
  resolveDataTypeV2,
  resolveDataTypeV3,
} from "@z/metadata";
import { havePython, runPython } from "@z/test-utils";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const spec = (dtype: string, shape: number[], fillValue: unknown = 0): ChunkSpec => ({
  shape,
  dataType:
    dtype.startsWith("<") || dtype.startsWith("|")
      ? resolveDataTypeV2(dtype).dataType
      : resolveDataTypeV3(dtype),
  fillValue,
});
const count = (s: ChunkSpec) => s.shape.reduce((a, b) => a * b, 1);

/** Sample chunks of `s`: a ramp, all fill, and a pseudo-random mix, from `value(i, seed)`. */
function samples(s: ChunkSpec, value: (i: number, seed: number) => unknown) {
  const n = count(s);
  return {
    spec: s,
    chunks: [
      chunkOf(
        s,
        Array.from({ length: n }, (_, i) => value(i, 0)),
      ),
      chunkOf(s, new Array(n).fill(s.fillValue)),
      chunkOf(
        s,
        Array.from({ length: n }, (_, i) => value((i * 7919 + 13) % 1009, 1)),
      ),
    ],
  };
}

const int32 = samples(spec("int32", [6, 5]), (i, seed) => (seed ? i * 40503 - 2 ** 20 : i));
const int16 = samples(spec("int16", [4, 4, 4]), (i, seed) =>
  seed ? ((i * 977) % 65536) - 32768 : i,
);
const smallInt32 = samples(spec("int32", [6, 5]), (i, seed) => (seed ? (i % 300) - 150 : i));
const float64 = samples(spec("float64", [7, 3]), (i, seed) => (seed ? Math.sin(i) * 1e3 : i / 8));
const uint8 = samples(spec("uint8", [33]), (i, seed) => (seed ? (i * 31) % 256 : i));
const bool = samples(spec("bool", [17], false), (i, seed) => (seed ? i % 3 === 0 : i % 2 === 0));
const near1000 = samples(spec("float64", [7, 3], 1000), (i, seed) =>
  seed ? 1000 + Math.cos(i) * 15 : 1000 + i / 100,
);
// The strings categorize encodes load on first use; the samples are built as the file loads.
await loadDataTypesFor({ dtype: "<U3" });
const labels = samples(spec("<U3", [9], ""), (i, seed) => ["a", "bb", "ccc"][(i + seed) % 3]);

/** A comparison allowing |decoded - original| <= tolerance(original), for lossy filters. */
function within(tolerance: (x: number) => number): CodecContractOptions["compare"] {
  return (decoded: JsonValue[], original: JsonValue[]) => {
    expect(decoded.length).toBe(original.length);
    decoded.forEach((d, i) => {
      const o = original[i] as number;
      expect(Math.abs((d as number) - o), `element ${i}: ${d} vs ${o}`).toBeLessThanOrEqual(
        tolerance(o),
      );
    });
  };
}

const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64");
/** Compresses base64 stdin with bz2 (level 1), answering in base64. */
const BZ2_SCRIPT =
  "import base64, bz2, sys; sys.stdout.write(base64.b64encode(bz2.compress(base64.b64decode(sys.stdin.read()), 1)).decode())";

const bytesLE = { name: "bytes", configuration: { endian: "little" } };

/**
 * zfp streams have no length: they end on a 64-bit word, padded with zero bits, and builds with
 * 8-bit words (Debian's) leave the padding out. A stream cut inside its last word is read as it
 * is (only padding may be missing), so the cut of the last byte is not refused; cuts of a word
 * or more are (zfp.test.ts).
 */
const ZFP_TRUNCATION = ["rejects truncated input with a typed error"];

/**
 * The registered zfp codec writes no header, so a stream has no shape: the stream of a larger
 * chunk is refused when it goes on a word or more past a smaller chunk's values, but the small
 * int16 sample's fits within that word.
 */
const ZFP_NO_SHAPE = "refuses to decode more than the chunk spec allows";

type Variant = { label?: string } & CodecContractOptions;

/** Every registered codec name with the configurations it is checked with. */
const VARIANTS: Record<string, Variant[]> = {
  bytes: [
    { codec: bytesLE, samples: [int32, int16, uint8, bool] },
    {
      label: "big endian",
      codec: { name: "bytes", configuration: { endian: "big" } },
      samples: [float64],
    },
  ],
  transpose: [{ codec: { name: "transpose", configuration: { order: [1, 0] } }, samples: [int32] }],
  reshape: [
    { codec: { name: "reshape", configuration: { shape: [-1] } }, samples: [int32, int16] },
    {
      label: "merged input dimensions",
      codec: { name: "reshape", configuration: { shape: [[0, 1], 2, -1] } },
      samples: [int16],
      smallerSpec: (s) => ({ ...s, shape: [2, 4, 4] }),
    },
  ],
  cast_value: [
    {
      codec: { name: "cast_value", configuration: { data_type: "int16" } },
      samples: [smallInt32],
    },
    {
      label: "float64 to float32, towards zero",
      codec: {
        name: "cast_value",
        configuration: { data_type: "float32", rounding: "towards-zero" },
      },
      samples: [float64],
      compare: within((x) => Math.abs(x) * 2 ** -23),
    },
  ],
  scale_offset: [
    {
      codec: { name: "scale_offset", configuration: { offset: 1000, scale: 4 } },
      samples: [near1000],
      compare: within((x) => Math.abs(x) * 2 ** -50),
    },
    {
      label: "int32 offset",
      codec: { name: "scale_offset", configuration: { offset: -7 } },
      samples: [smallInt32],
    },
  ],
  bitround: [
    {
      codec: { name: "bitround", configuration: { keepbits: 20 } },
      samples: [float64],
      compare: within((x) => Math.abs(x) * 2 ** -20),
    },
    {
      label: "integers",
      codec: { name: "bitround", configuration: { keepbits: 30 } },
      samples: [int32],
      // Negative values use all 32 bits of their pattern: the lowest two are rounded.
      compare: within(() => 2),
    },
  ],
  crc32c: [{ codec: { name: "crc32c" }, samples: [int32, uint8] }],
  packbits: [
    { codec: { name: "packbits" }, samples: [bool, uint8, int16] },
    {
      label: "int4, first_byte",
      codec: { name: "packbits", configuration: { padding_encoding: "first_byte" } },
      samples: [samples(spec("int4", [3, 5]), (i, seed) => ((i * (seed ? 7 : 1)) % 16) - 8)],
    },
  ],
  gzip: [{ codec: { name: "gzip", configuration: { level: 1 } }, samples: [int32, float64] }],
  zlib: [{ codec: { name: "zlib", configuration: { level: 1 } }, samples: [int32, float64] }],
  zstd: [{ codec: { name: "zstd", configuration: { level: 1 } }, samples: [int32, float64] }],
  zfp: [
    {
      codec: { name: "zfp", configuration: { mode: "reversible" } },
      samples: [int32, int16, uint8],
      expectedFailures: [...ZFP_TRUNCATION, ZFP_NO_SHAPE],
    },
    {
      label: "fixed accuracy",
      codec: { name: "zfp", configuration: { mode: "fixed_accuracy", tolerance: 0.001 } },
      samples: [float64],
      compare: within(() => 0.001),
      expectedFailures: ZFP_TRUNCATION,
    },
  ],
  "numcodecs.zfpy": [
    {
      codec: { name: "numcodecs.zfpy", configuration: { mode: 5 } },
      samples: [int32, float64],
      expectedFailures: ZFP_TRUNCATION,
    },
    {
      label: "v2 compressor, fixed accuracy",
      codec: { name: "numcodecs.zfpy", configuration: { mode: 4, tolerance: 0.01 } },
      samples: [float64],
      zarrFormat: 2,
      compare: within(() => 0.01),
      expectedFailures: ZFP_TRUNCATION,
    },
  ],
  n5_default: [
    {
      codec: {
        name: "n5_default",
        configuration: {
          codecs: [
            { name: "transpose", configuration: { order: [1, 0] } },
            { name: "bytes", configuration: { endian: "big" } },
            { name: "gzip", configuration: { level: 1 } },
          ],
        },
      },
      samples: [int32, float64],
    },
  ],
  blosc: [
    {
      codec: {
        name: "blosc",
        configuration: { cname: "lz4", clevel: 5, shuffle: "shuffle", typesize: 4, blocksize: 0 },
      },
      samples: [int32],
    },
  ],
  sharding_indexed: [
    {
      codec: {
        name: "sharding_indexed",
        configuration: { chunk_shape: [2, 5], codecs: [bytesLE] },
      },
      samples: [int32],
      smallerSpec: (s) => ({ ...s, shape: [2, 5] }),
    },
    {
      label: "index at the start, gzip inner chunks",
      codec: {
        name: "sharding_indexed",
        configuration: {
          chunk_shape: [3, 1],
          codecs: [bytesLE, { name: "gzip", configuration: { level: 1 } }],
          index_location: "start",
        },
      },
      samples: [int32],
      smallerSpec: (s) => ({ ...s, shape: [3, 5] }),
    },
  ],
  "numcodecs.adler32": [{ codec: { name: "numcodecs.adler32" }, samples: [int32], zarrFormat: 2 }],
  "numcodecs.crc32": [{ codec: { name: "numcodecs.crc32" }, samples: [int32], zarrFormat: 2 }],
  "numcodecs.fletcher32": [
    { codec: { name: "numcodecs.fletcher32" }, samples: [int32], zarrFormat: 2 },
  ],
  "numcodecs.base64": [{ codec: { name: "numcodecs.base64" }, samples: [int32], zarrFormat: 2 }],
  "numcodecs.crc32c": [{ codec: { name: "numcodecs.crc32c" }, samples: [int32], zarrFormat: 2 }],
  // bz2 only decodes here: Python's bz2 module writes the encoded samples.
  "numcodecs.bz2": havePython("codec contract: numcodecs.bz2", ["bz2"])
    ? [
        {
          codec: { name: "numcodecs.bz2", configuration: { level: 1 } },
          samples: [int32],
          zarrFormat: 2,
          encode: (bytes) =>
            new Uint8Array(Buffer.from(runPython(BZ2_SCRIPT, b64(bytes)), "base64")),
        },
      ]
    : [],
  "numcodecs.gzip": [
    {
      codec: { name: "numcodecs.gzip", configuration: { level: 1 } },
      samples: [int32],
      zarrFormat: 2,
    },
  ],
  "numcodecs.zlib": [
    {
      codec: { name: "numcodecs.zlib", configuration: { level: 1 } },
      samples: [int32],
      zarrFormat: 2,
    },
  ],
  "numcodecs.lz4": [
    {
      codec: { name: "numcodecs.lz4", configuration: { acceleration: 1 } },
      samples: [int32, float64],
      zarrFormat: 2,
    },
  ],
  "numcodecs.lzma": [{ codec: { name: "numcodecs.lzma" }, samples: [int32], zarrFormat: 2 }],
  "numcodecs.zstd": [
    {
      codec: { name: "numcodecs.zstd", configuration: { level: 1 } },
      samples: [int32],
      zarrFormat: 2,
    },
  ],
  "numcodecs.blosc": [
    {
      codec: {
        name: "numcodecs.blosc",
        configuration: { cname: "zstd", clevel: 1, shuffle: 1, blocksize: 0 },
      },
      samples: [int32, float64],
      zarrFormat: 2,
    },
  ],
  "numcodecs.shuffle": [
    {
      codec: { name: "numcodecs.shuffle", configuration: { elementsize: 4 } },
      samples: [int32],
      zarrFormat: 2,
    },
  ],
  "numcodecs.astype": [
    {
      codec: {
        name: "numcodecs.astype",
        configuration: { encode_dtype: "<i2", decode_dtype: "<i4" },
      },
      samples: [smallInt32],
      zarrFormat: 2,
    },
  ],
  "numcodecs.bitround": [
    {
      codec: { name: "numcodecs.bitround", configuration: { keepbits: 20 } },
      samples: [float64],
      zarrFormat: 2,
      compare: within((x) => Math.abs(x) * 2 ** -20),
    },
  ],
  "numcodecs.categorize": [
    {
      codec: {
        name: "numcodecs.categorize",
        configuration: { labels: ["a", "bb", "ccc"], dtype: "<U3", astype: "|u1" },
      },
      samples: [labels],
      zarrFormat: 2,
    },
  ],
  "numcodecs.delta": [
    {
      codec: { name: "numcodecs.delta", configuration: { dtype: "<i4" } },
      samples: [int32],
      zarrFormat: 2,
    },
  ],
  "numcodecs.fixedscaleoffset": [
    {
      codec: {
        name: "numcodecs.fixedscaleoffset",
        configuration: { offset: 1000, scale: 100, dtype: "<f8", astype: "<i4" },
      },
      samples: [near1000],
      zarrFormat: 2,
      compare: within(() => 0.5 / 100 + 1e-9),
    },
  ],
  "numcodecs.packbits": [{ codec: { name: "numcodecs.packbits" }, samples: [bool], zarrFormat: 2 }],
  "numcodecs.quantize": [
    {
      codec: { name: "numcodecs.quantize", configuration: { digits: 3, dtype: "<f8" } },
      samples: [float64],
      zarrFormat: 2,
      compare: within(() => 10 ** -3),
    },
  ],
};

describe("every codec this package registers is in the contract table", () => {
  it("no registered codec is left out", () => {
    expect(registeredCodecs().filter((name) => !(name in VARIANTS))).toEqual([]);
  });
});

// The codecs of the table load on first use; the contract suite builds them synchronously.
beforeAll(() =>
  loadCodecs(Object.values(VARIANTS).flatMap((v) => v.map(({ codec }) => codec.name))),
);

for (const [name, variants] of Object.entries(VARIANTS)) {
  for (const { label, ...options } of variants)
    describeCodecContract(label ? `${name} (${label})` : name, options);
}

// zstd runs natively where node:zlib has it (Node 22.15 and later) and in WebAssembly elsewhere:
// where both are here, its codecs meet the contract on the WebAssembly path too.
describe.runIf(zstdIsNative())("with the native path ruled out (zstd in WebAssembly)", () => {
  beforeAll(() => useCompressionPaths({ native: false }));
  afterAll(() => useCompressionPaths({ native: true }));
  it("zstd runs in WebAssembly", () => expect(zstdIsNative()).toBe(false));
  for (const name of ["zstd", "numcodecs.zstd"]) {
    for (const { label, ...options } of VARIANTS[name])
      describeCodecContract(label ? `${name} (${label})` : name, options);
  }
});

// Blosc's shuffles and LZ4 block decoding run in SIMD WebAssembly where the engine has it (the
// codecs load it on first use) and in JavaScript elsewhere: their codecs meet the contract on
// both paths.
describe.runIf(wasmSimdSupported())(
  "with the SIMD path ruled out (Blosc and LZ4 in JavaScript)",
  () => {
    beforeAll(async () => {
      await loadSimdKernels();
      useCompressionPaths({ simd: false });
    });
    afterAll(() => useCompressionPaths({ simd: true }));
    it("the SIMD kernels are loaded but not used", async () => {
      expect(await loadSimdKernels()).toBeDefined();
      expect(simdKernels()).toBeUndefined();
    });
    for (const name of ["blosc", "numcodecs.blosc", "numcodecs.lz4"]) {
      for (const { label, ...options } of VARIANTS[name])
        describeCodecContract(label ? `${name} (${label})` : name, options);
    }
  },
);
