// zfp arrays through the array API: v2 arrays zarr-python 2 wrote with numcodecs' zfpy read to
// exactly the values zarr-python reads (from the sources, and from the built packages in a fresh
// process with the default decode pool); a v2 zfpy array we write reads in zarr-python to our
// values; zarrs' zfpy fixtures read to the values zfpy decodes from their chunks; zfp serves as
// the inner codec of shards.
import { spawnSync } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import path from "node:path";
import { copyNode, createArray, openArray } from "@z/array";
import { FsStore } from "@z/store-fs";
import { MemoryStore } from "@z/store-memory";
import {
  builtPackagesOrWarn,
  fixturePath,
  haveFixtures,
  havePython,
  repositoryRoot,
  runPython,
  tempDir,
} from "@z/test-utils";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const python = havePython("zfp arrays", ["zarr", "numcodecs", "zfpy"]);

const b64 = (view: ArrayBufferView) =>
  Buffer.from(view.buffer, view.byteOffset, view.byteLength).toString("base64");

/** The arrays zarr-python 2 writes: dtype, shape, chunks, compressor settings. */
const ARRAYS = [
  {
    name: "f4_accuracy",
    dtype: "<f4",
    shape: [13, 9],
    chunks: [5, 4],
    zfpy: { mode: 4, tolerance: 0.01 },
  },
  { name: "f8_rate", dtype: "<f8", shape: [30], chunks: [8], zfpy: { mode: 2, rate: 10 } },
  {
    name: "f8_precision",
    dtype: "<f8",
    shape: [6, 7, 5],
    chunks: [4, 3, 5],
    zfpy: { mode: 3, precision: 24 },
  },
  {
    name: "i4_precision",
    dtype: "<i4",
    shape: [5, 6, 3, 4],
    chunks: [2, 4, 3, 3],
    zfpy: { mode: 3, precision: 28 },
  },
  { name: "i8_default", dtype: "<i8", shape: [11, 10], chunks: [6, 10], zfpy: { mode: 4 } },
];

/** zarr-python 2 writes the arrays under `dir` and prints the base64 of what it reads back. */
function writeWithZarrPython(dir: string): Record<string, string> {
  const script = `
import sys, json, base64, zarr, numcodecs, numpy as np
out = {}
for a in json.load(sys.stdin):
    n = int(np.prod(a["shape"]))
    x = np.sin(np.arange(n) / 5.0) * 1000 + np.arange(n) % 7
    data = x.astype(a["dtype"]).reshape(a["shape"])
    z = zarr.open(sys.argv[1] + "/" + a["name"], mode="w", shape=a["shape"], chunks=a["chunks"],
                  dtype=a["dtype"], compressor=numcodecs.ZFPY(**a["zfpy"]), fill_value=0)
    z[...] = data
    back = zarr.open(sys.argv[1] + "/" + a["name"], mode="r")[...]
    out[a["name"]] = base64.b64encode(np.ascontiguousarray(back).tobytes()).decode()
print(json.dumps(out))
`;
  const result = spawnSync("/usr/bin/python3", ["-c", script, dir], {
    input: JSON.stringify(ARRAYS),
    encoding: "utf8",
    maxBuffer: 1 << 26,
  });
  if (result.status !== 0) throw new Error(result.stderr);
  return JSON.parse(result.stdout);
}

describe.runIf(python)("zfpy arrays of zarr-python 2", () => {
  let dir = "";
  let remove = () => {};
  let theirs: Record<string, string> = {};

  beforeAll(() => {
    ({ dir, remove } = tempDir("zfp-arrays-"));
    theirs = writeWithZarrPython(dir);
  }, 60_000);
  afterAll(() => remove());

  it("read to exactly zarr-python's values, whole and in part", async () => {
    for (const { name, shape } of ARRAYS) {
      const arr = await openArray(new FsStore(dir), { path: name });
      expect(
        arr.metadata.codecs?.map((codec) => codec.name),
        name,
      ).toContain("numcodecs.zfpy");
      const all = await arr.get();
      expect(all.shape).toEqual(shape);
      expect(b64(all.data as ArrayBufferView), name).toBe(theirs[name]);
    }
    // A part: the first row of the 2-d float32 array.
    const arr = await openArray(new FsStore(dir), { path: "f4_accuracy" });
    const row = await arr.get([0, null]);
    const whole = new Float32Array(
      new Uint8Array(Buffer.from(theirs.f4_accuracy, "base64")).buffer,
    );
    expect(Array.from(row.data as Float32Array)).toEqual(Array.from(whole.subarray(0, 9)));
  });

  it.runIf(builtPackagesOrWarn("zfp arrays", ["array", "store-fs", "codecs", "compression"]))(
    "read to the same values through the built packages in fresh processes (default pool, and every chunk in a worker)",
    () => {
      const dist = (name: string, entry = "index.js") =>
        path.join(repositoryRoot, "packages", name, "dist", entry);
      for (const forced of [false, true]) {
        const script = `
${
  forced
    ? `const { createWorkerPool, setDefaultDecodePool } = await import(${JSON.stringify(dist("codecs", "workers/index.node.js"))});
const pool = createWorkerPool({ inlineBelow: 0 });
setDefaultDecodePool(pool);`
    : ""
}
const { openArray } = await import(${JSON.stringify(dist("array"))});
const { FsStore } = await import(${JSON.stringify(dist("store-fs"))});
const out = {};
for (const name of ${JSON.stringify(ARRAYS.map((a) => a.name))}) {
  const { data } = await (await openArray(new FsStore(${JSON.stringify(dir)}), { path: name })).get();
  out[name] = Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString("base64");
}
console.log(JSON.stringify(out));
${forced ? "if (pool.stats().dispatched === 0) throw new Error('no chunk went to a worker');\nawait pool.close();" : ""}
`;
        // A file, not --eval: workers inherit the process's flags, --input-type included.
        const file = path.join(dir, `read-${forced}.mjs`);
        writeFileSync(file, script);
        const result = spawnSync(process.execPath, [file], {
          encoding: "utf8",
          maxBuffer: 1 << 26,
        });
        expect(result.stderr, `forced: ${forced}`).toBe("");
        expect(JSON.parse(result.stdout), `forced: ${forced}`).toEqual(theirs);
      }
    },
    60_000,
  );

  it("copy to v3 with zfpy as the serializer in place of bytes, values unchanged", async () => {
    for (const { name } of ARRAYS) {
      const source = await openArray(new FsStore(dir), { path: name });
      const destination = new MemoryStore();
      await copyNode(source, destination, { zarrFormat: 3 });
      const copy = await openArray(destination, { path: name });
      expect(copy.zarrFormat, name).toBe(3);
      // As zarr-python 3 and zarrs write such arrays: zfpy encodes the array, no bytes codec.
      expect(
        copy.metadata.codecs?.map((codec) => codec.name),
        name,
      ).toEqual(["numcodecs.zfpy"]);
      // zfp is lossy: the copy holds the source's values encoded again, the same as writing
      // them to a v3 array with that codec, and within the tolerance the source asked for.
      const values = await source.get();
      const direct = await createArray(new MemoryStore(), {
        shape: source.shape,
        chunks: source.chunks,
        dtype: source.dtype,
        serializer: copy.metadata.codecs?.[0] as never,
        fillValue: 0,
      });
      await direct.set(null, values);
      const copied = await copy.get();
      expect(b64(copied.data as ArrayBufferView), name).toBe(
        b64((await direct.get()).data as ArrayBufferView),
      );
      if (name === "f4_accuracy") {
        const a = values.data as Float32Array;
        const b = copied.data as Float32Array;
        for (let i = 0; i < a.length; i++) expect(Math.abs(a[i] - b[i])).toBeLessThanOrEqual(0.01);
      }
    }
  });

  it("writes v2 zfpy arrays zarr-python reads to our values", async () => {
    const store = new FsStore(dir);
    const values = Float64Array.from({ length: 7 * 12 }, (_, i) => Math.cos(i / 6) * 300);
    const arr = await createArray(store, {
      path: "ours",
      shape: [7, 12],
      chunks: [4, 5],
      dtype: "float64",
      zarrFormat: 2,
      compressor: { id: "zfpy", mode: 4, tolerance: 0.001 },
    });
    await arr.set(null, { data: values, shape: [7, 12] });
    const ours = await (await openArray(store, { path: "ours" })).get();
    const read = runPython(
      `
import sys, base64, zarr, numpy as np
z = zarr.open(${JSON.stringify(`${dir}/ours`)}, mode="r")
print(z.compressor.get_config()["id"], base64.b64encode(np.ascontiguousarray(z[...]).tobytes()).decode())
`,
    ).trim();
    expect(read).toBe(`zfpy ${b64(ours.data as Float64Array)}`);
    for (let i = 0; i < values.length; i++)
      expect(Math.abs((ours.data as Float64Array)[i] - values[i])).toBeLessThanOrEqual(0.001);
  });
});

const ZARRS = [
  "zarrs/tests/data/v2/array_zfpy_C.zarr",
  "zarrs/tests/data/v3/array_zfpy.zarr",
  "zarrs/tests/data/v3_zarr_python/array_zfpy.zarr",
];

describe.runIf(python && haveFixtures("zfp arrays"))("zarrs' zfpy fixtures", () => {
  it("read to the values zfpy decodes from their chunks", async () => {
    for (const fixture of ZARRS) {
      const root = fixturePath("external", "zarrs-head", fixture);
      if (!existsSync(root)) throw new Error(`missing fixture ${root}`);
      const arr = await openArray(new FsStore(root));
      const { data, shape } = await arr.get();
      expect(shape).toEqual([10, 10]);
      // zfpy decodes each 5x5 chunk (keys "i.j" or "c/i/j"), assembled by NumPy.
      const expected = runPython(`
import os, base64, zfpy, numpy as np
root = ${JSON.stringify(root)}
out = np.zeros((10, 10), dtype="float32")
for i in range(2):
    for j in range(2):
        key = os.path.join(root, f"{i}.{j}")
        if not os.path.exists(key):
            key = os.path.join(root, "c", str(i), str(j))
        out[i*5:i*5+5, j*5:j*5+5] = zfpy.decompress_numpy(open(key, "rb").read())
print(base64.b64encode(out.tobytes()).decode())
`).trim();
      expect(b64(data as Float32Array), fixture).toBe(expected);
    }
  });
});

describe("zfp inside shards", () => {
  it("compresses the inner chunks of a shard; whole and partial reads give the values back", async () => {
    const map = new Map<string, Uint8Array>();
    const arr = await createArray(map, {
      path: "s",
      shape: [8, 12],
      chunks: [4, 4],
      shards: [8, 12],
      dtype: "int32",
      serializer: { name: "zfp", configuration: { mode: "reversible" } },
      compressors: null,
    });
    const values = Int32Array.from({ length: 96 }, (_, i) => ((i * 7919) % 1000) - 500);
    await arr.set(null, { data: values, shape: [8, 12] });
    expect([...map.keys()].filter((key) => key.includes("/c/"))).toEqual(["s/c/0/0"]);
    const reopened = await openArray(map, { path: "s" });
    expect(Array.from((await reopened.get()).data as Int32Array)).toEqual(Array.from(values));
    const row = await reopened.get([5, null]);
    expect(Array.from(row.data as Int32Array)).toEqual(Array.from(values.subarray(60, 72)));
  });
});
