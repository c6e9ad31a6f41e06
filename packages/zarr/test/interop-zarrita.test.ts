import { sampleValues } from "@z/test-utils";
import { type CodecSpec, createArray, openArray, type ZarrArray } from "@z/zarr";
import { describe, expect, it } from "vitest";
import * as zarrita from "zarrita";

/** zarrita reads from any object with `get(absolutePath)`; this one serves a Map of ours. */
function zarritaStore(map: Map<string, Uint8Array>) {
  return {
    get: async (key: string) => map.get(key.replace(/^\//, "")),
    set: async (key: string, value: Uint8Array) => void map.set(key.replace(/^\//, ""), value),
  };
}

function toContainer(_dtype: string, values: (number | bigint | boolean)[], array: ZarrArray) {
  const data = array.dataType.create(values.length);
  for (const [i, v] of values.entries()) array.dataType.setElement(data, i, v);
  return data;
}

/** Elements compared with Object.is semantics, except NaN equals NaN and bools as 0/1. */
function normalise(values: ArrayLike<unknown>): unknown[] {
  return Array.from(values, (v) =>
    typeof v === "boolean" ? Number(v) : typeof v === "number" && Number.isNaN(v) ? "NaN" : v,
  );
}

/** A strided result's elements in C order (zarrita returns transposed arrays with F strides). */
function cOrder(chunk: { data: ArrayLike<unknown>; shape: number[]; stride: number[] }): unknown[] {
  const out: unknown[] = [];
  const walk = (axis: number, offset: number) => {
    if (axis === chunk.shape.length) {
      const data = chunk.data as ArrayLike<unknown> & { get?: (i: number) => unknown };
      // zarrita's BoolArray is read through get(), not indexing.
      out.push(
        typeof data.get === "function" && !ArrayBuffer.isView(data)
          ? data.get(offset)
          : data[offset],
      );
      return;
    }
    for (let i = 0; i < chunk.shape[axis]; i++) walk(axis + 1, offset + i * chunk.stride[axis]);
  };
  walk(0, 0);
  return out;
}

// zarrita 0.7 needs a Float16Array for float16, which Node 20 does not have.
const DTYPES = [
  "bool",
  "int8",
  "uint8",
  "int16",
  "uint16",
  "int32",
  "uint32",
  "int64",
  "uint64",
  "float32",
  "float64",
];

const V3_CODECS: [
  string,
  { codecs?: CodecSpec[]; compressors?: CodecSpec[] | null; order?: "F"; dtypePrefix?: string },
][] = [
  ["no compression", { compressors: null }],
  ["gzip", { compressors: [{ name: "gzip", configuration: { level: 6 } }] }],
  ["zstd", { compressors: [{ name: "zstd", configuration: { level: 3, checksum: false } }] }],
  [
    "blosc lz4 shuffle",
    {
      compressors: [
        {
          name: "blosc",
          configuration: { cname: "lz4", clevel: 5, shuffle: "shuffle", blocksize: 0 },
        },
      ],
    },
  ],
  [
    "blosc zstd bitshuffle",
    {
      compressors: [
        {
          name: "blosc",
          configuration: { cname: "zstd", clevel: 3, shuffle: "bitshuffle", blocksize: 0 },
        },
      ],
    },
  ],
  [
    "blosc zlib noshuffle",
    {
      compressors: [
        {
          name: "blosc",
          configuration: { cname: "zlib", clevel: 1, shuffle: "noshuffle", blocksize: 0 },
        },
      ],
    },
  ],
  ["crc32c", { compressors: [{ name: "crc32c" }] }],
  ["F order (transpose)", { compressors: null, order: "F" }],
  [
    "big endian",
    { compressors: [{ name: "gzip", configuration: { level: 1 } }], dtypePrefix: ">" },
  ],
];

const V2_CODECS: [
  string,
  { compressor?: CodecSpec | null; filters?: CodecSpec[]; order?: "F"; dtypePrefix?: string },
][] = [
  ["no compressor", { compressor: null }],
  ["zlib", { compressor: { id: "zlib", level: 5 } }],
  ["gzip", { compressor: { id: "gzip", level: 5 } }],
  ["zstd", { compressor: { id: "zstd", level: 1 } }],
  ["lz4", { compressor: { id: "lz4", acceleration: 1 } }],
  [
    "blosc lz4 noshuffle",
    { compressor: { id: "blosc", cname: "lz4", clevel: 5, shuffle: 0, blocksize: 0 } },
  ],
  [
    "blosc zstd shuffle",
    { compressor: { id: "blosc", cname: "zstd", clevel: 5, shuffle: 1, blocksize: 0 } },
  ],
  [
    "blosc blosclz bitshuffle",
    { compressor: { id: "blosc", cname: "blosclz", clevel: 9, shuffle: 2, blocksize: 0 } },
  ],
  // zarrita shuffles by the data type's size whatever elementsize says, so elementsize here
  // is the item size (see withItemSize).
  [
    "shuffle filter + zlib",
    { compressor: { id: "zlib", level: 1 }, filters: [{ id: "shuffle", elementsize: -1 }] },
  ],
  ["F order", { compressor: null, order: "F" }],
  ["big endian", { compressor: { id: "zlib", level: 1 }, dtypePrefix: ">" }],
];

const V2_TYPESTR: Record<string, string> = {
  bool: "b1",
  int8: "i1",
  uint8: "u1",
  int16: "i2",
  uint16: "u2",
  int32: "i4",
  uint32: "u4",
  int64: "i8",
  uint64: "u8",
  float32: "f4",
  float64: "f8",
};

function withItemSize(filters: CodecSpec[] | undefined, dtype: string): CodecSpec[] | undefined {
  const itemSize = Number(V2_TYPESTR[dtype].slice(1));
  return filters?.map((f) =>
    typeof f === "object" && "elementsize" in f && f.elementsize === -1
      ? { ...f, elementsize: itemSize }
      : f,
  );
}

function dtypeFor(dtype: string, prefix: string | undefined): string {
  if (!prefix) return dtype;
  const size = V2_TYPESTR[dtype].slice(1);
  return size === "1" ? `|${V2_TYPESTR[dtype]}` : `${prefix}${V2_TYPESTR[dtype]}`;
}

describe("zarrita reads what we write", () => {
  for (const [format, configs] of [
    [3, V3_CODECS],
    [2, V2_CODECS],
  ] as const) {
    for (const [label, config] of configs) {
      it(`v${format} ${label}: every numeric type, ragged edges`, async () => {
        for (const dtype of DTYPES) {
          const map = new Map<string, Uint8Array>();
          const shape = [7, 5];
          const values = sampleValues(dtype, 35);
          const arr = await createArray(map, {
            path: "a",
            shape,
            chunks: [3, 2],
            zarrFormat: format,
            ...config,
            ...("filters" in config ? { filters: withItemSize(config.filters, dtype) } : {}),
            dtype: dtypeFor(dtype, config.dtypePrefix),
          });
          await arr.set(null, { data: toContainer(dtype, values, arr), shape });
          const location = zarrita.root(zarritaStore(map)).resolve("a");
          const theirs = await (format === 2
            ? zarrita.open.v2(location, { kind: "array" })
            : zarrita.open.v3(location, { kind: "array" }));
          const got = await zarrita.get(theirs);
          expect(got.shape, `${dtype}`).toEqual(shape);
          expect(normalise(cOrder(got as never)), `${dtype}`).toEqual(
            normalise((await arr.get()).data),
          );
        }
      });
    }
  }
});

// zarrita 0.7 encodes neither gzip nor crc32c (it only decodes them), so those cases are ours
// to write and its to read (above), not the other way round.
describe("we read what zarrita writes", () => {
  const CASES: [string, unknown[]][] = [
    ["bytes", [{ name: "bytes", configuration: { endian: "little" } }]],
    ["bytes big endian", [{ name: "bytes", configuration: { endian: "big" } }]],
    [
      "zstd",
      [
        { name: "bytes", configuration: { endian: "little" } },
        { name: "zstd", configuration: { level: 3, checksum: false } },
      ],
    ],
    [
      "blosc",
      [
        { name: "bytes", configuration: { endian: "little" } },
        {
          name: "blosc",
          configuration: { cname: "lz4", clevel: 5, shuffle: "shuffle", typesize: 4, blocksize: 0 },
        },
      ],
    ],
    [
      "transpose",
      [
        { name: "transpose", configuration: { order: [1, 0] } },
        { name: "bytes", configuration: { endian: "little" } },
      ],
    ],
  ];
  for (const [label, codecs] of CASES) {
    it(`${label}`, async () => {
      for (const dtype of ["int16", "uint32", "float32", "float64", "int64"]) {
        const map = new Map<string, Uint8Array>();
        const store = zarritaStore(map);
        const values = sampleValues(dtype, 35);
        const theirs = await zarrita.create(zarrita.root(store).resolve("b"), {
          shape: [7, 5],
          chunkShape: [3, 2],
          dtype: dtype as "int16",
          codecs: codecs as never,
          fillValue: 0,
        });
        const Ctor = {
          int16: Int16Array,
          uint32: Uint32Array,
          float32: Float32Array,
          float64: Float64Array,
          int64: BigInt64Array,
        }[dtype]!;
        const data = (Ctor as unknown as { from(v: unknown[]): ArrayLike<unknown> }).from(values);
        await zarrita.set(theirs, null, { data, shape: [7, 5], stride: [5, 1] } as never);
        const ours = await openArray(map, { path: "b" });
        expect(normalise((await ours.get()).data), `${dtype}`).toEqual(normalise(data));
      }
    });
  }
});
