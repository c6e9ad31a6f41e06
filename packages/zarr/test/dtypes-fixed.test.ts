// Every fixed-size data type through whole arrays: written and read back here in v2 and v3,
// read by zarr-python 2 from our v2 output, and zarr-python 2's own output read here. Elements
// are compared in their `zarr get --json` form (packages/cli/src/json-values.ts). One chunk of each array
// holds only the fill value, so it is not stored and both readers must produce the fill value
// from the metadata: that checks the fill value encodings too.
import { havePython, runPython, tempDir } from "@z/test-utils";
import {
  type ArrayOptions,
  createArray,
  type DataType,
  FsStore,
  type JsonValue,
  loadDataTypesFor,
  NAT,
  openArray,
  resolveDataTypeV2,
  type StructType,
  type ZarrArray,
} from "@z/zarr";
import { afterAll, describe, expect, it } from "vitest";

const suite = "fixed-size data types";

/** Encodes elements of any type in the `zarr get --json` form, in Python. */
const PY_ENCODE = `
import base64, json, math, sys
import numpy as np
import zarr
def f(v):
    v = float(v)
    if math.isnan(v): return "NaN"
    if math.isinf(v): return "Infinity" if v > 0 else "-Infinity"
    return v
def i(v):
    v = int(v)
    return v if abs(v) <= 2**53 else str(v)
def enc(v, dt):
    if dt.fields is not None:
        return {name: enc(v[name], dt.fields[name][0]) for name in dt.names}
    if dt.subdtype is not None:
        base, shape = dt.subdtype
        return nested(np.asarray(v), base)
    k = dt.kind
    if k == "c": return [f(v.real), f(v.imag)]
    if k in "mM":
        n = int(np.asarray(v).view("i8"))
        return "NaT" if n == -2**63 else i(n)
    if k in "SV": return {"base64": base64.b64encode(bytes(v) if k == "S" else v.tobytes()).decode()}
    if k == "U": return str(v)
    if k == "b": return bool(v)
    if k == "f": return f(v)
    return i(v)
def nested(a, base):
    if a.ndim == 0: return enc(a[()], base)
    return [nested(a[j], base) for j in range(a.shape[0])]
def values(a):
    flat = a.reshape(-1)
    return [enc(flat[j], a.dtype) for j in range(flat.shape[0])]
`;

const READER = `${PY_ENCODE}
request = json.load(sys.stdin)
for path in request["paths"]:
    z = zarr.open_array(request["root"], mode="r", path=path)
    a = z[...]
    print(json.dumps({"path": path, "shape": list(a.shape), "dtype": z.dtype.descr if z.dtype.fields else z.dtype.str, "values": values(a)}))
`;

const WRITER = `${PY_ENCODE}
root = sys.argv[1]
rng = np.random.default_rng(7)
cases = {
    "c8": (np.array([1.5 - 2j, complex("nan+infj"), 0j, -3e30 + 1e-30j], dtype="<c8"), complex(1, -1)),
    "c16be": (np.array([1.5 - 2j, complex("-inf+nanj"), 7j, 1e300], dtype=">c16"), complex("nan")),
    "M8ns": (np.array(["2001-02-03T04:05:06.123456789", "NaT", "1969-12-31", "2262-04-11"], dtype="<M8[ns]"), np.datetime64("NaT")),
    "m8_10s_be": (np.array([1, -7, 2**40, 0], dtype=">m8[10s]"), np.timedelta64(3, "10s")),
    "M8Y": (np.array(["1970", "2024", "1600", "NaT"], dtype="<M8[Y]"), np.datetime64("1999")),
    "S6": (np.array([b"", b"abc", b"abcdef", b"a\\x00b"], dtype="|S6"), b"zz"),
    "U3be": (np.array(["", "h\\u00e9", "\\U0001F600ab", "xyz"], dtype=">U3"), "q"),
    "V3": (np.array([b"\\x01\\x02\\x03", b"", b"\\xff\\x00\\x01", b"abc"], dtype="|V3"), None),
    "struct": (np.array([(1, (2.5, 3), [[1, 2, 3], [4, 5, 6]], 1 + 2j, "2020-01-01", b"ab", "\\u00df"),
                         (-1, (-0.5, 255), [[0] * 3] * 2, -1j, "NaT", b"", "")],
                        dtype=[("a", "<i4"), ("sub", [("x", ">f8"), ("y", "|u1")]), ("arr", "<f4", (2, 3)),
                               ("c", ">c8"), ("t", "<M8[s]"), ("s", "|S3"), ("u", ">U2")]), None),
}
out = {}
for name, (data, fill) in cases.items():
    a = np.concatenate([data, data[:2]])
    # zarr-python 2 cannot create V or structured arrays with a fill value (it compares it with
    # 0), and without one leaves missing chunks uninitialised: those arrays have no missing chunk.
    extra = 0 if fill is None else 3
    z = zarr.open_array(root, mode="w", path=name, shape=(len(a) + extra,), chunks=(3,), dtype=a.dtype,
                        fill_value=fill, compressor=zarr.Zlib(1))
    z[: len(a)] = a
    out[name] = values(z[...])
print(json.dumps(out))
`;

interface Case {
  label: string;
  dtype: string | DataType;
  fill: unknown;
  values: unknown[];
}

const bytes = (text: string) => new TextEncoder().encode(text);

const STRUCT_V2 = [
  ["a", "<i4"],
  [
    "sub",
    [
      ["x", ">f8"],
      ["y", "|u1"],
    ],
  ],
  ["arr", "<f4", [2, 3]],
  ["c", ">c8"],
  ["t", "<M8[s]"],
  ["s", "|S3"],
  ["u", ">U2"],
];
// The record's member types load on first use; the case list resolves it as the file loads.
await loadDataTypesFor({ dtype: STRUCT_V2 as JsonValue });
const record = (a: number, x: number, t: bigint, s: string, u: string) => ({
  a,
  sub: { x, y: a & 255 },
  arr: [
    [a, 2, 3],
    [4, 5, x],
  ],
  c: { re: x, im: -a },
  t,
  s: bytes(s),
  u,
});

/** Eleven values plus the fill value last: with shape [3, 4] and chunks [2, 3], chunk (1, 1) holds only element 11. */
const CASES: Case[] = [
  {
    label: "complex64",
    dtype: "<c8",
    fill: { re: Number.NaN, im: 1 },
    values: [1.5, -2, 0, 3e30, Number.NaN, 7, -1, 0.25, 1e-30, 2, 9].map((re, i) => ({
      re,
      im: i % 3 ? -re : Number.POSITIVE_INFINITY,
    })),
  },
  {
    label: "complex128-be",
    dtype: ">c16",
    fill: { re: 1, im: -1 },
    values: [1e300, -2, 0, 3, Number.NaN, 7, -1, 0.1, 1e-300, 2, 9].map((re, i) => ({ re, im: i })),
  },
  {
    label: "datetime-ns",
    dtype: "<M8[ns]",
    fill: "NaT",
    values: [0n, 1n, -1n, 1_700_000_000_123_456_789n, NAT, 2n ** 62n, -(2n ** 62n), 5n, 6n, 7n, 8n],
  },
  {
    label: "datetime-D",
    dtype: "<M8[D]",
    fill: 5n,
    values: [0n, 1n, -1n, 19000n, NAT, 3n, 4n, 6n, 7n, 8n, 9n],
  },
  {
    label: "datetime-Y",
    dtype: "<M8[Y]",
    fill: 30n,
    values: [0n, 1n, -370n, 54n, NAT, 3n, 4n, 6n, 7n, 8n, 9n],
  },
  {
    label: "timedelta-10s-be",
    dtype: ">m8[10s]",
    fill: NAT,
    values: [0n, 1n, -1n, 2n ** 40n, 3n, 4n, 5n, 6n, 7n, 8n, 9n],
  },
  {
    label: "bytes-S5",
    dtype: "|S5",
    fill: bytes("ab"),
    values: ["", "a", "abcde", "a\0b", "xyz", "12345", "é", "q", "r", "s", "t"].map(bytes),
  },
  {
    label: "unicode-U4",
    dtype: "<U4",
    fill: "q",
    values: ["", "a", "abcd", "😀x", "ßàř", "ƪùüx", "1", "2", "3", "4", "5"],
  },
  {
    label: "unicode-U4-be",
    dtype: ">U4",
    fill: "",
    values: ["x", "a", "abcd", "😀x", "ßàř", "ƪùüx", "1", "2", "3", "4", "5"],
  },
  {
    label: "raw-V3",
    dtype: "|V3",
    fill: new Uint8Array([1, 2, 3]),
    values: Array.from({ length: 11 }, (_, i) => new Uint8Array([i, 0, 255 - i])),
  },
  {
    label: "struct",
    dtype: resolveDataTypeV2(STRUCT_V2 as never).dataType,
    fill: record(-7, Number.NaN, NAT, "ab", "x"),
    values: Array.from({ length: 11 }, (_, i) =>
      record(i * 1000 - 3, i / 4, BigInt(i) * 86400n, "s".repeat(i % 4), "ü".repeat(i % 3)),
    ),
  },
];

function jsonValues(array: ZarrArray, data: unknown, n: number): unknown[] {
  const t = array.dataType;
  return Array.from({ length: n }, (_, i) => t.toJsonElement(t.getElement(data as never, i)));
}

function options(c: Case, zarrFormat: 2 | 3): ArrayOptions {
  return {
    shape: [3, 4],
    chunks: [2, 3],
    dtype: c.dtype,
    fillValue: c.fill,
    zarrFormat,
    compressor: { id: "zlib", level: 1 },
  } as ArrayOptions;
}

describe(suite, () => {
  const { dir, remove } = tempDir("z-dtypes-");
  afterAll(remove);
  const written = new Map<string, unknown[]>();

  it.each(CASES.flatMap((c) => [2, 3].map((f) => [`${c.label} v${f}`, c, f] as const)))(
    "%s: write, reopen, read back; the fill-only chunk is not stored",
    async (_label, c, zarrFormat) => {
      // A hierarchy has one format: the v2 and v3 arrays go to hierarchies of their own.
      const store = new FsStore(`${dir}/v${zarrFormat}`);
      const path = c.label;
      // v3 has no per-field byte orders: its struct takes the bytes codec's.
      const dtype =
        zarrFormat === 3 && typeof c.dtype !== "string"
          ? (c.dtype as StructType).withoutFixedOrders()
          : c.dtype;
      const array = await createArray(store, {
        ...options({ ...c, dtype }, zarrFormat as 2 | 3),
        path,
      });
      await array.set(null, [...c.values, c.fill]);
      const expected = jsonValues(array, (await array.get()).data, 12);
      const reopened = await openArray(store, { path });
      expect(reopened.dataType.name).toBe(array.dataType.name);
      const result = await reopened.get();
      expect(result.shape).toEqual([3, 4]);
      expect(jsonValues(reopened, result.data, 12)).toEqual(expected);
      // What we wrote is what we meant: each value as the type itself stores it.
      const t = array.dataType;
      const one = t.create(1);
      const meant = [...c.values, c.fill].map((v) => {
        t.setElement(one, 0, t.coerce(v));
        return t.toJsonElement(t.getElement(one, 0));
      });
      expect(expected).toEqual(meant);
      const chunkKey = zarrFormat === 2 ? `${path}/1.1` : `${path}/c/1/1`;
      expect(await store.get(chunkKey)).toBeUndefined();
      expect(await store.get(zarrFormat === 2 ? `${path}/0.0` : `${path}/c/0/0`)).toBeDefined();
      if (zarrFormat === 2) written.set(`v2/${path}`, expected);
    },
  );

  it.skipIf(!havePython(`${suite}: zarr-python 2 reads our v2 output`))(
    "zarr-python 2 reads our v2 output of every type with the same values",
    () => {
      expect(written.size).toBe(CASES.length);
      const lines = runPython(READER, JSON.stringify({ root: dir, paths: [...written.keys()] }))
        .trim()
        .split("\n");
      expect(lines).toHaveLength(written.size);
      for (const line of lines) {
        const result = JSON.parse(line);
        expect(result.shape, result.path).toEqual([3, 4]);
        expect(result.values, result.path).toEqual(written.get(result.path));
      }
      console.log(
        `[${suite}] zarr-python 2 read ${lines.length} arrays of fixed-size types we wrote, with the same values`,
      );
    },
  );

  it.skipIf(!havePython(`${suite}: we read zarr-python 2 output`))(
    "reads zarr-python 2's arrays of every type",
    async () => {
      const root = `${dir}/from-python`;
      const expected = JSON.parse(
        runPython(WRITER.replace("root = sys.argv[1]", `root = ${JSON.stringify(root)}`)),
      );
      const store = new FsStore(root);
      for (const [path, values] of Object.entries(expected) as [string, unknown[]][]) {
        const array = await openArray(store, { path });
        const result = await array.get();
        expect(jsonValues(array, result.data, values.length), path).toEqual(values);
      }
    },
  );

  it("writes the v3 data type and fill value forms of the specs", async () => {
    const store = new FsStore(dir);
    const meta = async (label: string) =>
      JSON.parse(new TextDecoder().decode(await store.get(`v3/${label}/zarr.json`)));
    expect(await meta("complex64")).toMatchObject({
      data_type: "complex64",
      fill_value: ["NaN", 1],
    });
    expect(await meta("datetime-ns")).toMatchObject({
      data_type: { name: "numpy.datetime64", configuration: { unit: "ns", scale_factor: 1 } },
      fill_value: "NaT",
    });
    expect(await meta("timedelta-10s-be")).toMatchObject({
      data_type: { name: "numpy.timedelta64", configuration: { unit: "s", scale_factor: 10 } },
      codecs: [{ name: "bytes", configuration: { endian: "big" } }, { name: "numcodecs.zlib" }],
    });
    expect(await meta("bytes-S5")).toMatchObject({
      data_type: { name: "null_terminated_bytes", configuration: { length_bytes: 5 } },
      fill_value: "YWI=",
    });
    expect(await meta("unicode-U4")).toMatchObject({
      data_type: { name: "fixed_length_utf32", configuration: { length_bytes: 16 } },
      fill_value: "q",
    });
    expect(await meta("raw-V3")).toMatchObject({
      data_type: { name: "raw_bytes", configuration: { length_bytes: 3 } },
      fill_value: "AQID",
    });
    const struct = await meta("struct");
    expect(struct.data_type.name).toBe("struct");
    expect(struct.data_type.configuration.fields[2]).toEqual({
      name: "arr",
      data_type: { name: "subarray", configuration: { subdtype: "float32", shape: [2, 3] } },
    });
    expect(struct.fill_value).toMatchObject({
      a: -7,
      sub: { x: "NaN", y: 249 },
      t: "NaT",
      s: "YWI=",
      u: "x",
      c: ["NaN", 7],
    });
    const v2 = JSON.parse(new TextDecoder().decode(await store.get("v2/struct/.zarray")));
    expect(v2.dtype).toEqual(STRUCT_V2);
    expect(typeof v2.fill_value).toBe("string");
  });
});
