import { havePython, runPython, sampleValues, tempDir } from "@z/test-utils";
import { type ArrayOptions, type CodecSpec, createArray, FsStore, type ZarrArray } from "@z/zarr";
import { afterAll, describe, expect, it } from "vitest";

const suite = "zarr-python 2 reads our v2 output";

/** Reads every listed array with zarr-python 2 and prints each as one JSON line. */
const READER = `
import json, math, sys
import numpy as np
import zarr
root = sys.argv[1] if len(sys.argv) > 1 else None
def encode(v):
    if isinstance(v, (bool, np.bool_)):
        return bool(v)
    if isinstance(v, (np.floating, float)):
        v = float(v)
        if math.isnan(v): return "NaN"
        if math.isinf(v): return "Infinity" if v > 0 else "-Infinity"
        return v
    v = int(v)
    return v if abs(v) <= 2**53 else str(v)
request = json.load(sys.stdin)
for path in request["paths"]:
    z = zarr.open_array(request["root"], mode="r", path=path)
    a = z[...]
    print(json.dumps({"path": path, "shape": list(a.shape), "dtype": a.dtype.str,
                      "values": [encode(v) for v in a.ravel(order="C").tolist()]}))
`;

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
  "float16",
  "float32",
  "float64",
];
const FLOATS = ["float16", "float32", "float64"];

type Case = { label: string; dtypes: string[]; options: Partial<ArrayOptions> };

const CASES: Case[] = [
  { label: "none", dtypes: DTYPES, options: { compressor: null } },
  { label: "zlib", dtypes: DTYPES, options: { compressor: { id: "zlib", level: 1 } } },
  { label: "gzip", dtypes: DTYPES, options: { compressor: { id: "gzip", level: 9 } } },
  { label: "zstd", dtypes: DTYPES, options: { compressor: { id: "zstd", level: 5 } } },
  { label: "lz4", dtypes: DTYPES, options: { compressor: { id: "lz4", acceleration: 1 } } },
  ...["blosclz", "lz4", "lz4hc", "zlib", "zstd"].flatMap((cname) =>
    [0, 1, 2].map((shuffle) => ({
      label: `blosc-${cname}-shuffle${shuffle}`,
      dtypes: DTYPES,
      options: { compressor: { id: "blosc", cname, clevel: 5, shuffle, blocksize: 0 } },
    })),
  ),
  { label: "F order", dtypes: DTYPES, options: { compressor: null, order: "F" } },
  {
    label: "big endian",
    dtypes: DTYPES,
    options: { compressor: { id: "zlib", level: 1 }, dtypePrefix: ">" } as never,
  },
  {
    label: "nested keys",
    dtypes: ["int32"],
    options: { compressor: null, dimensionSeparator: "/" },
  },
  {
    label: "delta",
    dtypes: ["int16", "int32", "uint8", "int64", "float64"],
    options: { compressor: { id: "zlib", level: 1 }, filters: [{ id: "delta", dtype: "@" }] },
  },
  {
    label: "shuffle filter",
    dtypes: ["int16", "float64"],
    options: { compressor: { id: "zlib", level: 1 }, filters: [{ id: "shuffle", elementsize: 0 }] },
  },
  {
    label: "fixedscaleoffset",
    dtypes: ["float64"],
    options: {
      compressor: null,
      filters: [{ id: "fixedscaleoffset", offset: 1000, scale: 10, dtype: "<f8", astype: "<i4" }],
    },
  },
  {
    label: "quantize",
    dtypes: ["float32", "float64"],
    options: { compressor: null, filters: [{ id: "quantize", digits: 2, dtype: "@" }] },
  },
  {
    label: "astype",
    dtypes: ["float64"],
    options: {
      compressor: null,
      filters: [{ id: "astype", encode_dtype: "<f4", decode_dtype: "<f8" }],
    },
  },
  {
    label: "packbits",
    dtypes: ["bool"],
    options: { compressor: null, filters: [{ id: "packbits" }] },
  },
];

const TYPESTR: Record<string, string> = {
  bool: "|b1",
  int8: "|i1",
  uint8: "|u1",
  int16: "<i2",
  uint16: "<u2",
  int32: "<i4",
  uint32: "<u4",
  int64: "<i8",
  uint64: "<u8",
  float16: "<f2",
  float32: "<f4",
  float64: "<f8",
};

function encode(value: unknown): unknown {
  if (typeof value === "bigint")
    return Number.isSafeInteger(Number(value)) ? Number(value) : value.toString();
  if (typeof value === "number") {
    if (Number.isNaN(value)) return "NaN";
    if (!Number.isFinite(value)) return value > 0 ? "Infinity" : "-Infinity";
  }
  return value;
}

function resolveFilters(
  filters: CodecSpec[] | undefined,
  typestr: string,
): CodecSpec[] | undefined {
  return filters?.map((f) =>
    typeof f === "object" && "dtype" in f && f.dtype === "@" ? { ...f, dtype: typestr } : f,
  );
}

describe.skipIf(!havePython(suite))(suite, () => {
  const { dir, remove } = tempDir("z-python-interop-");
  afterAll(remove);
  const written = new Map<string, { array: ZarrArray; expected: unknown[] }>();

  it("writes and reads every case", async () => {
    const store = new FsStore(dir);
    for (const testCase of CASES) {
      for (const dtype of testCase.dtypes) {
        const prefix = (testCase.options as { dtypePrefix?: string }).dtypePrefix;
        const typestr =
          prefix && !TYPESTR[dtype].startsWith("|")
            ? `>${TYPESTR[dtype].slice(1)}`
            : TYPESTR[dtype];
        const path = `${testCase.label.replaceAll(" ", "_")}/${dtype}`;
        const { dtypePrefix: _unused, ...options } = testCase.options as Partial<ArrayOptions> & {
          dtypePrefix?: string;
        };
        const shape = [7, 5];
        const array = await createArray(store, {
          ...options,
          filters: resolveFilters(options.filters as CodecSpec[] | undefined, typestr),
          path,
          shape,
          chunks: [3, 2],
          dtype: typestr,
          zarrFormat: 2,
          fillValue: FLOATS.includes(dtype) ? Number.NaN : undefined,
        });
        const values = sampleValues(dtype, 35);
        // Lossy filters: compare with what we read back ourselves, which must equal what
        // zarr-python reads (the encoded bytes are the same).
        await array.set([null, null], { data: fromValues(array, values), shape });
        const ours = await array.get();
        const expected = Array.from({ length: 35 }, (_, i) =>
          encode(array.dataType.getElement(ours.data, i)),
        );
        written.set(path, { array, expected });
      }
    }
    const lines = runPython(READER, JSON.stringify({ root: dir, paths: [...written.keys()] }))
      .trim()
      .split("\n");
    expect(lines).toHaveLength(written.size);
    for (const line of lines) {
      const result = JSON.parse(line);
      const { array, expected } = written.get(result.path)!;
      expect(result.shape, result.path).toEqual([7, 5]);
      expect(result.dtype, result.path).toBe(array.metadata.v2?.dtype);
      expect(result.values, result.path).toEqual(expected);
    }
    console.log(
      `[${suite}] zarr-python 2 read ${lines.length} arrays we wrote, with the same values`,
    );
  });

  it("reads lossless cases exactly as written", async () => {
    // For lossless cases the values must also equal the samples we wrote.
    for (const [path, { expected }] of written) {
      // Lossy: quantize, astype to a narrower type, fixed-point; delta over NaN and infinities.
      if (/^(quantize|astype|fixedscaleoffset)/.test(path) || path === "delta/float64") continue;
      const dtype = path.split("/").pop()!;
      const samples = sampleValues(dtype, 35).map((v) =>
        typeof v === "boolean" ? v : encode(roundTo(dtype, v as number | bigint)),
      );
      expect(expected, path).toEqual(samples);
    }
  });
});

function fromValues(array: ZarrArray, values: (number | bigint | boolean)[]) {
  const data = array.dataType.create(values.length);
  for (const [i, v] of values.entries()) array.dataType.setElement(data, i, v);
  return data;
}

function roundTo(dtype: string, value: number | bigint): number | bigint {
  if (dtype === "float32") return Math.fround(value as number);
  return value;
}
