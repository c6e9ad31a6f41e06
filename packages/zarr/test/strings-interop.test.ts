import { readFileSync } from "node:fs";
import path from "node:path";
import { havePython, runPython, tempDir } from "@z/test-utils";
import { type ArrayOptions, createArray, FsStore, openArray } from "@z/zarr";
import { afterAll, describe, expect, it } from "vitest";
import * as zarrita from "zarrita";

/** Empty strings, NUL inside and alone, a BOM, non-ASCII, emoji, a long string. */
const TEXTS = [
  "",
  "plain",
  "héllo wörld",
  "日本語テキスト",
  "🚀🎉👩‍🔬",
  "a\0b",
  "\0",
  "\uFEFFbom",
  "λ".repeat(200),
  "",
  "tail",
  "x",
];

/** zarrita reads from any object with `get(absolutePath)`; this one serves a Map of ours. */
function zarritaStore(map: Map<string, Uint8Array>) {
  return { get: async (key: string) => map.get(key.replace(/^\//, "")) };
}

async function zarritaRead(map: Map<string, Uint8Array>, format: 2 | 3) {
  const location = zarrita.root(zarritaStore(map)).resolve("s");
  const array = await (format === 2
    ? zarrita.open.v2(location, { kind: "array" })
    : zarrita.open.v3(location, { kind: "array" }));
  return zarrita.get(array as never) as Promise<{ data: unknown[]; shape: number[] }>;
}

const V3_CASES: [string, Partial<ArrayOptions>][] = [
  ["no compressor", { compressors: null }],
  ["zstd", { compressors: [{ name: "zstd", configuration: { level: 3, checksum: false } }] }],
  ["gzip", { compressors: [{ name: "gzip", configuration: { level: 5 } }] }],
];
const V2_CASES: [string, Partial<ArrayOptions>][] = [
  ["no compressor", { compressor: null }],
  ["zlib", { compressor: { id: "zlib", level: 1 } }],
  ["blosc", { compressor: { id: "blosc", cname: "lz4", clevel: 5, shuffle: 1, blocksize: 0 } }],
];

async function writeStrings(
  store: Map<string, Uint8Array> | FsStore,
  format: 2 | 3,
  options: Partial<ArrayOptions>,
  path = "s",
) {
  const arr = await createArray(store, {
    path,
    shape: [3, 4],
    chunks: [2, 3],
    dtype: "string",
    serializer: "vlen-utf8",
    fillValue: "",
    zarrFormat: format,
    ...options,
  });
  await arr.set(null, { data: TEXTS, shape: [3, 4] });
  return arr;
}

describe("zarrita reads the strings we write", () => {
  for (const [format, cases] of [
    [3, V3_CASES],
    [2, V2_CASES],
  ] as const) {
    for (const [label, options] of cases) {
      it(`v${format} ${label}`, async () => {
        const map = new Map<string, Uint8Array>();
        await writeStrings(map, format, options);
        const theirs = await zarritaRead(map, format);
        expect(theirs.shape).toEqual([3, 4]);
        // zarrita 0.7 decodes each string with a default TextDecoder, which drops a leading
        // BOM (U+FEFF); every other value, NULs and emoji included, reads back unchanged.
        expect(Array.from(theirs.data)).toEqual(TEXTS.map((t) => t.replace(/^\uFEFF/, "")));
        expect(Array.from(theirs.data)[7]).toBe("bom");
      });
    }
  }
});

const suite = "zarr-python 2 and our strings";
const python = havePython(suite);
const scratch: { remove: () => void }[] = [];
afterAll(() => {
  for (const dir of scratch) dir.remove();
});
function folder(): string {
  const t = tempDir("z-strings-");
  scratch.push(t);
  return t.dir;
}

/** Prints each array's values as JSON: strings as strings, bytes as base64, other objects as JSON. */
const READER = `
import base64, json, sys
import zarr
request = json.load(sys.stdin)
def encode(v):
    if isinstance(v, bytes): return {"base64": base64.b64encode(v).decode()}
    return v
for path in request["paths"]:
    z = zarr.open_array(request["root"], mode="r", path=path)
    a = z[...]
    print(json.dumps({"path": path, "dtype": a.dtype.str, "filters": [f.get_config() for f in (z.filters or [])],
                      "shape": list(a.shape), "values": [encode(v) for v in a.ravel(order="C").tolist()]}))
`;

describe.skipIf(!python)(suite, () => {
  it("zarr-python 2 reads our v2 string arrays (every compressor, F order, missing chunks) with the same values", async () => {
    const root = folder();
    const store = new FsStore(root);
    const paths: string[] = [];
    for (const [label, options] of [
      ...V2_CASES,
      ["F order", { compressor: null, order: "F" }] as const,
    ]) {
      const path = label.replace(/ /g, "_");
      await writeStrings(store, 2, options, path);
      paths.push(path);
    }
    const sparse = await createArray(store, {
      path: "sparse",
      zarrFormat: 2,
      shape: [6],
      chunks: [2],
      dtype: "string",
      serializer: "vlen-utf8",
      fillValue: "-",
      compressor: null,
    });
    await sparse.set([2], "é" as never);
    const lines = runPython(READER, JSON.stringify({ root, paths: [...paths, "sparse"] }))
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    for (const line of lines.slice(0, paths.length)) {
      expect(line.dtype, line.path).toBe("|O");
      expect(line.filters, line.path).toEqual([{ id: "vlen-utf8" }]);
      expect(line.shape, line.path).toEqual([3, 4]);
      expect(line.values, line.path).toEqual(TEXTS);
    }
    expect(lines.at(-1).values).toEqual(["-", "-", "é", "-", "-", "-"]);
  });

  it("zarr-python 2 reads our v2 bytes arrays", async () => {
    const root = folder();
    const items = [new Uint8Array([0, 255, 1]), new Uint8Array(0), new TextEncoder().encode("🚀")];
    const arr = await createArray(new FsStore(root), {
      path: "b",
      zarrFormat: 2,
      shape: [3],
      chunks: [2],
      dtype: "bytes",
      serializer: "vlen-bytes",
      fillValue: new Uint8Array(0),
      compressor: { id: "zlib", level: 1 },
    });
    await arr.set(null, items);
    const [line] = runPython(READER, JSON.stringify({ root, paths: ["b"] }))
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(line.filters).toEqual([{ id: "vlen-bytes" }]);
    expect(line.values).toEqual(items.map((b) => ({ base64: Buffer.from(b).toString("base64") })));
  });

  it("we read what zarr-python 2 writes: vlen-utf8, vlen-bytes, json2 and msgpack2 object arrays", async () => {
    const root = folder();
    const writer = `
import json, sys
import numpy as np
import numcodecs, zarr
root = sys.argv[1] if len(sys.argv) > 1 else None
request = json.load(sys.stdin)
texts = request["texts"]
def store(path, values, codec, fill):
    z = zarr.open_array(request["root"], mode="w", path=path, shape=(len(values),), chunks=(5,), dtype=object, object_codec=codec, fill_value=fill)
    a = np.empty(len(values), dtype=object)
    a[:] = values
    z[...] = a
store("utf8", texts, numcodecs.VLenUTF8(), "")
store("bytes", [t.encode("utf-8") for t in texts], numcodecs.VLenBytes(), None)
mixed = ["s", 1, 2.5, None, [1, "two"], {"k": [True, False]}, "🚀"]
store("json2", mixed, numcodecs.JSON(), None)
store("msgpack2", mixed, numcodecs.MsgPack(), None)
grid = np.empty((2, 3), dtype=object)
grid[:] = [["a", "bb", "é"], ["🚀", "", "f"]]
for name, codec in [("f_utf8", numcodecs.VLenUTF8()), ("f_json2", numcodecs.JSON()), ("f_msgpack2", numcodecs.MsgPack())]:
    z = zarr.open_array(request["root"], mode="w", path=name, shape=(2, 3), chunks=(2, 3), dtype=object, object_codec=codec, order="F", fill_value=None)
    z[...] = grid
`;
    runPython(writer, JSON.stringify({ root, texts: TEXTS }));
    const store = new FsStore(root, { readOnly: true });
    expect((await (await openArray(store, { path: "utf8" })).get()).data).toEqual(TEXTS);
    const bytes = (await (await openArray(store, { path: "bytes" })).get()).data as Uint8Array[];
    expect(bytes.map((b) => new TextDecoder("utf-8", { ignoreBOM: true }).decode(b))).toEqual(
      TEXTS,
    );
    const mixed = ["s", 1, 2.5, null, [1, "two"], { k: [true, false] }, "🚀"];
    expect((await (await openArray(store, { path: "json2" })).get()).data).toEqual(mixed);
    expect((await (await openArray(store, { path: "msgpack2" })).get()).data).toEqual(mixed);
    // F order: vlen-utf8 stores memory order, json2 and msgpack2 NumPy's logical tolist().
    for (const path of ["f_utf8", "f_json2", "f_msgpack2"]) {
      expect((await (await openArray(store, { path })).get()).data, path).toEqual([
        "a",
        "bb",
        "é",
        "🚀",
        "",
        "f",
      ]);
    }
  });

  it("F order: zarr-python 2 reads our vlen-utf8 arrays; our json2 chunks are the bytes it writes", async () => {
    const root = folder();
    const store = new FsStore(root);
    const values = [
      ["a", "bb", "é"],
      ["🚀", "", "f"],
    ];
    for (const [path, serializer] of [
      ["ours_json2", { id: "json2" }],
      ["ours_utf8", "vlen-utf8"],
    ] as const) {
      const arr = await createArray(store, {
        path,
        zarrFormat: 2,
        shape: [2, 3],
        chunks: [2, 3],
        dtype: "string",
        serializer,
        compressor: null,
        order: "F",
        fillValue: "",
      });
      await arr.set(null, values);
    }
    const [utf8] = runPython(READER, JSON.stringify({ root, paths: ["ours_utf8"] }))
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(utf8.values).toEqual(values.flat());
    // zarr-python 2 writes json2 in NumPy's logical order (tolist) but reads it back as if it
    // were memory order, so it cannot read its own F-order json2 arrays; we write what it
    // writes and read what it meant.
    const writer = `
import json, sys
import numpy as np
import numcodecs, zarr
request = json.load(sys.stdin)
a = np.empty((2, 3), dtype=object)
a[:] = request["values"]
z = zarr.open_array(request["root"], mode="w", path="theirs_json2", shape=(2, 3), chunks=(2, 3), dtype=object, object_codec=numcodecs.JSON(), order="F", fill_value="", compressor=None)
z[...] = a
`;
    runPython(writer, JSON.stringify({ root, values }));
    const ours = readFileSync(path.join(root, "ours_json2", "0.0"));
    const theirs = readFileSync(path.join(root, "theirs_json2", "0.0"));
    expect(ours.toString()).toBe(theirs.toString());
  });
});
