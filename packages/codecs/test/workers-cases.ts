// Stored chunks for every registered codec, shared by the worker pool tests (Chromium and
// Node): each case is a codec chain, a chunk spec and its values, encoded by our own pipeline.
import { type ChunkSpec, CodecPipeline, loadCodecsFor } from "@z/codecs";
import { chunkOf, chunkValues } from "@z/codecs/testing";
import {
  type JsonValue,
  loadDataTypesFor,
  type NamedConfig,
  resolveDataTypeV2,
  resolveDataTypeV3,
} from "@z/metadata";

/** A case as the page receives it: plain data, the stored bytes in base64. */
export interface WorkerCase {
  label: string;
  /** The registered codec names this case exercises. */
  covers: string[];
  codecs: NamedConfig[];
  dtype: JsonValue;
  shape: number[];
  fillValue: JsonValue;
  zarrFormat: 2 | 3;
  base64: string;
  /** The decoded values, in C order and JSON form, as the inline pipeline here gives them. */
  expected: JsonValue[];
}

const named = (name: string, configuration: Record<string, JsonValue> = {}): NamedConfig => ({
  name,
  configuration,
  mustUnderstand: true,
});
const bytesLE = named("bytes", { endian: "little" });
const SHAPE = [48, 40];
const n = SHAPE[0] * SHAPE[1];

interface Recipe {
  label: string;
  codecs: NamedConfig[];
  dtype: string;
  value: (i: number) => unknown;
  fillValue?: unknown;
  zarrFormat?: 2 | 3;
}

const ramp = (i: number) => (i * 37) % 5000;
const wave = (i: number) => 1000 + Math.sin(i / 7) * 15;

const RECIPES: Recipe[] = [
  { label: "bytes int32", codecs: [bytesLE], dtype: "int32", value: ramp },
  {
    label: "bitround float32",
    codecs: [named("bitround", { keepbits: 10 }), bytesLE],
    dtype: "float32",
    value: wave,
  },
  {
    label: "reshape",
    codecs: [named("reshape", { shape: [-1] }), bytesLE],
    dtype: "int32",
    value: ramp,
  },
  {
    label: "scale_offset + cast_value",
    codecs: [
      named("scale_offset", { offset: 900, scale: 2 }),
      named("cast_value", { data_type: "int16", rounding: "nearest-even" }),
      bytesLE,
    ],
    dtype: "float64",
    value: (i) => 900 + (i % 1000) / 2,
  },
  {
    label: "packbits int4",
    codecs: [named("packbits")],
    dtype: "int4",
    value: (i) => (i % 16) - 8,
  },
  {
    label: "bytes big-endian float64",
    codecs: [named("bytes", { endian: "big" })],
    dtype: "float64",
    value: wave,
  },
  { label: "bytes bool", codecs: [bytesLE], dtype: "bool", value: (i) => i % 3 === 0 },
  { label: "bytes uint16", codecs: [bytesLE], dtype: "uint16", value: (i) => (i * 97) % 65536 },
  {
    label: "transpose",
    codecs: [named("transpose", { order: [1, 0] }), bytesLE],
    dtype: "int32",
    value: ramp,
  },
  { label: "crc32c", codecs: [bytesLE, named("crc32c")], dtype: "int32", value: ramp },
  { label: "gzip", codecs: [bytesLE, named("gzip", { level: 1 })], dtype: "int32", value: ramp },
  { label: "zlib", codecs: [bytesLE, named("zlib", { level: 1 })], dtype: "float64", value: wave },
  { label: "zstd", codecs: [bytesLE, named("zstd", { level: 1 })], dtype: "int32", value: ramp },
  {
    label: "zfp",
    codecs: [named("zfp", { mode: "fixed_accuracy", tolerance: 0.001 })],
    dtype: "float64",
    value: wave,
  },
  {
    label: "numcodecs.zfpy",
    codecs: [named("numcodecs.zfpy", { mode: 5 })],
    dtype: "int32",
    value: ramp,
  },
  {
    label: "numcodecs.zfpy (v2 compressor)",
    codecs: [bytesLE, named("numcodecs.zfpy", { mode: 4, tolerance: 0.01 })],
    dtype: "float32",
    value: wave,
    zarrFormat: 2,
  },
  {
    label: "n5_default",
    codecs: [
      named("n5_default", {
        codecs: [
          { name: "transpose", configuration: { order: [1, 0] } },
          { name: "bytes", configuration: { endian: "big" } },
          { name: "zstd", configuration: { level: 1 } },
        ],
      }),
    ],
    dtype: "uint16",
    value: (i) => (i * 97) % 65536,
  },
  {
    label: "blosc",
    codecs: [
      bytesLE,
      named("blosc", { cname: "lz4", clevel: 5, shuffle: "shuffle", typesize: 4, blocksize: 0 }),
    ],
    dtype: "int32",
    value: ramp,
  },
  {
    label: "sharding_indexed",
    codecs: [
      named("sharding_indexed", {
        chunk_shape: [16, 8],
        codecs: [bytesLE as unknown as JsonValue, { name: "gzip", configuration: { level: 1 } }],
        index_codecs: [bytesLE as unknown as JsonValue, { name: "crc32c" }],
      }),
    ],
    dtype: "int32",
    value: ramp,
  },
  ...["adler32", "crc32", "crc32c", "fletcher32", "base64"].map(
    (id): Recipe => ({
      label: `numcodecs.${id}`,
      codecs: [bytesLE, named(`numcodecs.${id}`)],
      dtype: "int32",
      value: ramp,
      zarrFormat: 2,
    }),
  ),
  ...(
    [
      ["gzip", { level: 1 }],
      ["zlib", { level: 1 }],
      ["lz4", { acceleration: 1 }],
      ["zstd", { level: 1 }],
      ["blosc", { cname: "zstd", clevel: 1, shuffle: 1, blocksize: 0 }],
      ["shuffle", { elementsize: 4 }],
      ["lzma", {}],
    ] as const
  ).map(
    ([id, configuration]): Recipe => ({
      label: `numcodecs.${id}`,
      codecs: [bytesLE, named(`numcodecs.${id}`, { ...configuration })],
      dtype: "int32",
      value: ramp,
      zarrFormat: 2,
    }),
  ),
  {
    label: "numcodecs.astype",
    codecs: [named("numcodecs.astype", { encode_dtype: "<i2", decode_dtype: "<i4" }), bytesLE],
    dtype: "int32",
    value: (i) => (i % 300) - 150,
    zarrFormat: 2,
  },
  {
    label: "numcodecs.bitround",
    codecs: [named("numcodecs.bitround", { keepbits: 20 }), bytesLE],
    dtype: "float64",
    value: wave,
    zarrFormat: 2,
  },
  {
    label: "numcodecs.categorize",
    codecs: [
      named("numcodecs.categorize", { labels: ["a", "bb", "ccc"], dtype: "<U3", astype: "|u1" }),
      bytesLE,
    ],
    dtype: "<U3",
    value: (i) => ["a", "bb", "ccc"][i % 3],
    fillValue: "",
    zarrFormat: 2,
  },
  {
    label: "numcodecs.delta",
    codecs: [named("numcodecs.delta", { dtype: "<i4" }), bytesLE],
    dtype: "int32",
    value: ramp,
    zarrFormat: 2,
  },
  {
    label: "numcodecs.fixedscaleoffset",
    codecs: [
      named("numcodecs.fixedscaleoffset", {
        offset: 1000,
        scale: 100,
        dtype: "<f8",
        astype: "<i4",
      }),
      bytesLE,
    ],
    dtype: "float64",
    value: wave,
    zarrFormat: 2,
  },
  {
    label: "numcodecs.packbits",
    codecs: [named("numcodecs.packbits"), bytesLE],
    dtype: "bool",
    value: (i) => i % 5 === 0,
    fillValue: false,
    zarrFormat: 2,
  },
  {
    label: "numcodecs.quantize",
    codecs: [named("numcodecs.quantize", { digits: 3, dtype: "<f8" }), bytesLE],
    dtype: "float64",
    value: wave,
    zarrFormat: 2,
  },
];

/**
 * Codecs with no encoder here: bz2 chunks come from Python's bz2 module, passed in by the
 * test as `bz2Compress` (undefined when Python is missing).
 */
export async function workerCases(
  bz2Compress?: (bytes: Uint8Array) => Uint8Array,
): Promise<WorkerCase[]> {
  const cases: WorkerCase[] = [];
  for (const recipe of RECIPES) cases.push(await encodeCase(recipe));
  if (bz2Compress) {
    const plain = await encodeCase({
      label: "plain",
      codecs: [bytesLE],
      dtype: "int32",
      value: ramp,
    });
    const stored = bz2Compress(Buffer.from(plain.base64, "base64"));
    cases.push({
      ...plain,
      label: "numcodecs.bz2",
      covers: ["bytes", "numcodecs.bz2"],
      codecs: [bytesLE, named("numcodecs.bz2", { level: 1 })],
      zarrFormat: 2,
      base64: Buffer.from(stored).toString("base64"),
    });
  }
  return cases;
}

function specOf(dtype: string, fillValue: unknown): ChunkSpec {
  const dataType = /^[<>|]/.test(dtype)
    ? resolveDataTypeV2(dtype).dataType
    : resolveDataTypeV3(dtype);
  return { shape: [...SHAPE], dataType, fillValue: fillValue ?? dataType.defaultFill };
}

async function encodeCase(recipe: Recipe): Promise<WorkerCase> {
  // What opening an array loads first: the codecs and the data type (int4) load on first use.
  const dataType: JsonValue = /^[<>|]/.test(recipe.dtype)
    ? { dtype: recipe.dtype }
    : { data_type: recipe.dtype };
  await Promise.all([
    loadCodecsFor(recipe.codecs as unknown as JsonValue),
    loadDataTypesFor(dataType),
  ]);
  const spec = specOf(recipe.dtype, recipe.fillValue);
  const zarrFormat = recipe.zarrFormat ?? 3;
  const pipeline = CodecPipeline.create(recipe.codecs, spec, zarrFormat);
  const values = Array.from({ length: n }, (_, i) => recipe.value(i));
  const stored = await pipeline.encode(chunkOf(spec, values));
  const expected = chunkValues(await pipeline.decode(stored.slice()), spec);
  return {
    label: recipe.label,
    covers: recipe.codecs.flatMap((c) =>
      c.name === "sharding_indexed" ? [c.name, "bytes", "gzip", "crc32c"] : [c.name],
    ),
    codecs: recipe.codecs,
    dtype: spec.dataType.toV3(),
    shape: [...SHAPE],
    fillValue: spec.dataType.fillToJson(spec.fillValue, 3),
    zarrFormat,
    base64: Buffer.from(stored).toString("base64"),
    expected,
  };
}
