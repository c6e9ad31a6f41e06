import { goldenCases } from "@z/test-utils";
import { type ArrayOptions, arrowDataType, createArray, MemoryStore } from "@z/zarr";

/**
 * One array per codec configuration (every compressor, blosc compressor and shuffle, checksum,
 * filter, object and string codec, Arrow, sharding; v2 and v3), written with real data by our
 * own writer. The chunk fuzzer damages their chunks and reads them back.
 */

/** How to make one array. */
export interface ChunkSetup {
  label: string;
  options: ArrayOptions;
  /** The values to write (the whole array). */
  values: unknown;
}

/** A written array: its files, and the keys of its chunks. */
export interface WrittenArray {
  label: string;
  files: [string, Uint8Array][];
  chunkKeys: string[];
}

const N = 40;
const CHUNK = [16];
const floats = Float32Array.from({ length: N }, (_, i) => Math.sin(i) * 100);
const doubles = Float64Array.from({ length: N }, (_, i) => Math.cos(i) * 1000);
const ints = Int32Array.from({ length: N }, (_, i) => ((i * 7919) % 65536) - 32768);
const shorts = Int16Array.from({ length: N }, (_, i) => i * 3 - 50);
const bytes = Uint8Array.from({ length: N }, (_, i) => (i * 37) % 256);
const bools = Array.from({ length: N }, (_, i) => i % 3 === 0);
const words = ["", "a", "é", "日本語", "🚀 rocket", "a\u0000b", "zz", "long".repeat(20)];
const strings = Array.from({ length: N }, (_, i) => words[i % words.length]);
const blobs = Array.from({ length: N }, (_, i) =>
  Uint8Array.from({ length: i % 9 }, (_, j) => j * i),
);

const v3 = (label: string, options: Omit<ArrayOptions, "shape">, values: unknown): ChunkSetup => ({
  label: `v3/${label}`,
  options: { shape: [N], chunks: CHUNK, ...options },
  values,
});
const v2 = (label: string, options: Omit<ArrayOptions, "shape">, values: unknown): ChunkSetup => ({
  label: `v2/${label}`,
  options: { shape: [N], chunks: CHUNK, zarrFormat: 2, ...options },
  values,
});

const BLOSC_CNAMES = ["blosclz", "lz4", "lz4hc", "snappy", "zlib", "zstd"];
const SHUFFLES = ["noshuffle", "shuffle", "bitshuffle"] as const;

function arrowSetups(): ChunkSetup[] {
  const field = (type: unknown) => ({ name: "v", nullable: true, type, children: [] });
  const int32 = arrowDataType(field({ name: "int", bitWidth: 32, isSigned: true }) as never);
  const utf8 = arrowDataType(field({ name: "utf8" }) as never);
  const list = arrowDataType({
    name: "v",
    nullable: true,
    type: { name: "list" },
    children: [
      {
        name: "item",
        nullable: true,
        type: { name: "int", bitWidth: 16, isSigned: true },
        children: [],
      },
    ],
  } as never);
  return [
    v3(
      "arrow/int32",
      { dtype: int32, serializer: "z.arrow-ipc", compressors: null },
      Array.from({ length: N }, (_, i) => (i % 5 === 3 ? null : i * 1000)),
    ),
    v3(
      "arrow/utf8",
      { dtype: utf8, serializer: "z.arrow-ipc", compressors: null },
      strings.map((s, i) => (i % 7 === 2 ? null : s)),
    ),
    v3(
      "arrow/list",
      { dtype: list, serializer: "z.arrow-ipc", compressors: null },
      {
        data: Array.from({ length: N }, (_, i) =>
          i % 4 === 1 ? null : Array.from({ length: i % 5 }, (_, j) => j - i),
        ),
        shape: [N],
      },
    ),
    v3(
      "arrow/int32+gzip",
      {
        dtype: int32,
        serializer: "z.arrow-ipc",
        compressors: [{ name: "gzip", configuration: { level: 1 } }],
      },
      Array.from({ length: N }, (_, i) => i),
    ),
  ];
}

/** Every setup. */
export function chunkSetups(): ChunkSetup[] {
  const setups: ChunkSetup[] = [
    v3("bytes/int16", { dtype: "int16", compressors: null }, shorts),
    v3(
      "bytes-big/float64",
      {
        dtype: "float64",
        serializer: { name: "bytes", configuration: { endian: "big" } },
        compressors: null,
      },
      doubles,
    ),
    v3(
      "gzip",
      { dtype: "float32", compressors: [{ name: "gzip", configuration: { level: 1 } }] },
      floats,
    ),
    v3(
      "zstd",
      {
        dtype: "float32",
        compressors: [{ name: "zstd", configuration: { level: 3, checksum: false } }],
      },
      floats,
    ),
    v3(
      "zstd+checksum",
      {
        dtype: "int32",
        compressors: [{ name: "zstd", configuration: { level: 1, checksum: true } }],
      },
      ints,
    ),
    v3("crc32c", { dtype: "uint8", compressors: [{ name: "crc32c" }] }, bytes),
    v3(
      "gzip+crc32c",
      {
        dtype: "int16",
        compressors: [{ name: "gzip", configuration: { level: 6 } }, { name: "crc32c" }],
      },
      shorts,
    ),
    {
      label: "v3/transpose+zstd",
      options: {
        shape: [6, 7],
        chunks: [4, 3],
        dtype: "int32",
        order: "F",
        compressors: [{ name: "zstd", configuration: { level: 1, checksum: false } }],
      },
      values: Int32Array.from({ length: 42 }, (_, i) => i * 11 - 200),
    },
    v3("zlib", { dtype: "float64", compressors: [{ id: "zlib", level: 1 }] }, doubles),
    v3("numcodecs.lz4", { dtype: "int32", compressors: [{ id: "lz4", acceleration: 1 }] }, ints),
    v3("numcodecs.lzma", { dtype: "int16", compressors: [{ id: "lzma", preset: 1 }] }, shorts),
    v3("numcodecs.crc32", { dtype: "uint8", compressors: [{ id: "crc32" }] }, bytes),
    v3("numcodecs.crc32c", { dtype: "uint8", compressors: [{ id: "crc32c" }] }, bytes),
    v3("numcodecs.adler32", { dtype: "uint8", compressors: [{ id: "adler32" }] }, bytes),
    v3(
      "filter/delta",
      {
        dtype: "int32",
        filters: [{ id: "delta", dtype: "<i4" }],
        compressors: [{ name: "gzip", configuration: { level: 1 } }],
      },
      ints,
    ),
    v3(
      "filter/fixedscaleoffset",
      {
        dtype: "float64",
        filters: [{ id: "fixedscaleoffset", dtype: "<f8", astype: "<i4", scale: 10, offset: 1000 }],
        compressors: null,
      },
      doubles,
    ),
    v3(
      "filter/quantize",
      {
        dtype: "float64",
        filters: [{ id: "quantize", digits: 3, dtype: "<f8" }],
        compressors: [{ name: "zstd", configuration: { level: 1, checksum: false } }],
      },
      doubles,
    ),
    v3(
      "filter/bitround",
      {
        dtype: "float32",
        filters: [{ id: "bitround", keepbits: 10 }],
        compressors: [{ name: "gzip", configuration: { level: 1 } }],
      },
      floats,
    ),
    v3(
      "filter/packbits",
      { dtype: "bool", filters: [{ id: "packbits" }], compressors: null },
      bools,
    ),
    v3(
      "filter/astype",
      {
        dtype: "float64",
        filters: [{ id: "astype", encode_dtype: "<f4", decode_dtype: "<f8" }],
        compressors: null,
      },
      doubles,
    ),
    v3(
      "filter/shuffle",
      {
        dtype: "int32",
        compressors: [
          { id: "shuffle", elementsize: 4 },
          { name: "zstd", configuration: { level: 1, checksum: false } },
        ],
      },
      ints,
    ),
    v3("string/vlen-utf8", { dtype: "string", compressors: null }, strings),
    v3(
      "string/vlen-utf8+zstd",
      {
        dtype: "string",
        compressors: [{ name: "zstd", configuration: { level: 1, checksum: false } }],
      },
      strings,
    ),
    v3(
      "string/vlen-offsets",
      { dtype: "string", serializer: "z.vlen-offsets", compressors: null },
      strings,
    ),
    v3("bytes/vlen-bytes", { dtype: "bytes", compressors: null }, blobs),
    v3(
      "sharding/gzip",
      {
        dtype: "int16",
        chunks: [4],
        shards: [16],
        compressors: [{ name: "gzip", configuration: { level: 1 } }],
      },
      shorts,
    ),
    v3(
      "sharding/start",
      {
        dtype: "float32",
        chunks: [8],
        shards: [16],
        shardIndexLocation: "start",
        compressors: null,
      },
      floats,
    ),
    v3(
      "sharding/strings",
      { dtype: "string", chunks: [4], shards: [16], compressors: null },
      strings,
    ),
    v2("zlib", { dtype: "<f8", compressor: { id: "zlib", level: 1 } }, doubles),
    v2("gzip", { dtype: "<i4", compressor: { id: "gzip", level: 1 } }, ints),
    v2("lzma", { dtype: "<i2", compressor: { id: "lzma", preset: 1 } }, shorts),
    v2("lz4", { dtype: "<i4", compressor: { id: "lz4", acceleration: 1 } }, ints),
    v2("zstd", { dtype: ">f8", compressor: { id: "zstd", level: 1 } }, doubles),
    v2("crc32c", { dtype: "|u1", compressor: { id: "crc32c" } }, bytes),
    v2(
      "filter/delta+zlib",
      {
        dtype: "<i2",
        filters: [{ id: "delta", dtype: "<i2" }],
        compressor: { id: "zlib", level: 1 },
      },
      shorts,
    ),
    v2(
      "filter/fixedscaleoffset",
      {
        dtype: "<f8",
        filters: [{ id: "fixedscaleoffset", dtype: "<f8", astype: "|i1", scale: 10, offset: 1000 }],
        compressor: null,
      },
      Float64Array.from({ length: N }, (_, i) => 990 + i / 2),
    ),
    v2(
      "filter/categorize",
      {
        dtype: "<U5",
        filters: [{ id: "categorize", labels: ["a", "bb", "ccc"], dtype: "<U5", astype: "|u1" }],
        compressor: null,
      },
      Array.from({ length: N }, (_, i) => ["a", "bb", "ccc", ""][i % 4]),
    ),
    v2(
      "object/vlen-utf8",
      { dtype: "|O", serializer: { id: "vlen-utf8" }, compressor: null },
      strings,
    ),
    v2(
      "object/vlen-bytes",
      { dtype: "|O", serializer: { id: "vlen-bytes" }, compressor: { id: "zlib", level: 1 } },
      blobs,
    ),
    v2("object/json2", { dtype: "|O", serializer: { id: "json2" }, compressor: null }, strings),
    v2(
      "object/msgpack2",
      { dtype: "|O", serializer: { id: "msgpack2" }, compressor: null },
      strings,
    ),
    v2(
      "object/vlen-array",
      { dtype: "|O", serializer: { id: "vlen-array", dtype: "<i4" }, compressor: null },
      Array.from({ length: N }, (_, i) => Int32Array.from({ length: i % 6 }, (_, j) => j * i - 7)),
    ),
    v2(
      "S7+zlib",
      { dtype: "|S7", compressor: { id: "zlib", level: 1 } },
      Array.from({ length: N }, (_, i) => new TextEncoder().encode(`b${i}`)),
    ),
    v2(
      "U7+zstd",
      { dtype: "<U7", compressor: { id: "zstd", level: 1 } },
      Array.from({ length: N }, (_, i) => `ü${i}`),
    ),
    ...arrowSetups(),
  ];
  for (const cname of BLOSC_CNAMES) {
    for (const shuffle of SHUFFLES) {
      setups.push(
        v3(
          `blosc/${cname}/${shuffle}`,
          {
            dtype: "float32",
            compressors: [
              {
                name: "blosc",
                configuration: { cname, clevel: 5, shuffle, typesize: 4, blocksize: 0 },
              },
            ],
          },
          floats,
        ),
      );
    }
    setups.push(
      v2(
        `blosc/${cname}`,
        { dtype: "<i2", compressor: { id: "blosc", cname, clevel: 3, shuffle: 2, blocksize: 0 } },
        shorts,
      ),
    );
  }
  return setups;
}

/** Writes one setup into a fresh MemoryStore and returns its files. */
export async function writeSetup(setup: ChunkSetup): Promise<WrittenArray> {
  const store = new MemoryStore();
  const arr = await createArray(store, setup.options);
  await arr.set(null, setup.values as never);
  const files: [string, Uint8Array][] = [];
  for await (const key of store.list()) files.push([key, (await store.get(key)) as Uint8Array]);
  files.sort(([a], [b]) => (a < b ? -1 : 1));
  const metadata = /(^|\/)(zarr\.json|\.zarray|\.zattrs|\.zgroup)$/;
  const chunkKeys = files.map(([k]) => k).filter((k) => !metadata.test(k));
  if (chunkKeys.length === 0) throw new Error(`${setup.label}: no chunk was written`);
  return { label: setup.label, files, chunkKeys };
}

/** Compressors whose numcodecs golden encodings become v2 arrays (bz2 has no JS encoder). */
const GOLDEN_COMPRESSORS = ["bz2", "lzma", "lz4", "zstd", "zlib", "gzip", "blosc"];
const GOLDEN_CONFIGS_PER_CODEC = 6;

/**
 * Arrays whose single chunk numcodecs itself encoded (the golden files), one per compressor
 * configuration: empty when the fixtures are absent.
 */
export function goldenArrays(): WrittenArray[] {
  const out: WrittenArray[] = [];
  const encoder = new TextEncoder();
  for (const codec of GOLDEN_COMPRESSORS) {
    const cases = goldenCases(codec).filter(
      (c) =>
        c.array.shape.length === 1 &&
        !c.array.fortranOrder &&
        /^[<>|][iuf][1248]$/.test(c.array.descr),
    );
    const seen = new Set<string>();
    for (const c of cases) {
      const config = JSON.stringify(c.config);
      if (seen.has(config) || seen.size >= GOLDEN_CONFIGS_PER_CODEC) continue;
      seen.add(config);
      const zarray = {
        zarr_format: 2,
        shape: c.array.shape,
        chunks: c.array.shape,
        dtype: c.array.descr,
        compressor: c.config,
        fill_value: 0,
        filters: null,
        order: "C",
      };
      out.push({
        label: `golden/${c.label}`,
        files: [
          [".zarray", encoder.encode(JSON.stringify(zarray))],
          ["0", c.encoded],
        ],
        chunkKeys: ["0"],
      });
    }
  }
  return out;
}
