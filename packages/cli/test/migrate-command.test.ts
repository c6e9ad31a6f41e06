import { createHash } from "node:crypto";
import { cpSync, existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { havePython, runPython, scratchFolders } from "@z/test-utils";
import { createArray, createGroup, FsStore, openArray, parseJson } from "@z/zarr";
import { describe, expect, it } from "vitest";
import * as zarrita from "zarrita";
import { haveBuiltCli, runBuilt } from "./support/run-built.js";
import { zarritaFolder } from "./support/zarrita-folder.js";

const scratch = scratchFolders("z-cli-migrate-");
const python = havePython("zarr migrate on zarr-python 2 hierarchies");
const built = haveBuiltCli("zarr migrate, the built command");

/** Every file below a folder with a hash of its bytes, by relative path. */
function snapshot(root: string): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const full = path.join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else
        files.set(
          path.relative(root, full),
          createHash("sha1").update(readFileSync(full)).digest("hex"),
        );
    }
  };
  walk(root);
  return files;
}

/** The elements of a zarrita result in C order, whatever its strides (order F arrays come transposed). */
function cOrder(chunk: { data: unknown; shape: number[]; stride: number[] }): unknown[] {
  // zarrita's BoolArray reads elements through get(), typed arrays by index.
  const raw = chunk.data as ArrayLike<unknown> & { get?: (i: number) => unknown };
  const at = (i: number) => (typeof raw.get === "function" ? raw.get(i) : raw[i]);
  const size = chunk.shape.reduce((a, b) => a * b, 1);
  return Array.from({ length: size }, (_, flat) => {
    let offset = 0;
    for (let axis = chunk.shape.length - 1; axis >= 0; axis--) {
      offset += (flat % chunk.shape[axis]) * chunk.stride[axis];
      flat = Math.floor(flat / chunk.shape[axis]);
    }
    return at(offset);
  });
}

const METADATA = new Set([".zarray", ".zgroup", ".zattrs", ".zmetadata", "zarr.json"]);
const chunksOf = (files: Map<string, string>) =>
  new Map([...files].filter(([key]) => !METADATA.has(path.basename(key))));

/**
 * A v2 hierarchy zarr-python 2 wrote: several data types, compressors and filters, order F,
 * big-endian, both separators, missing chunks, attributes and a subgroup. Prints the values
 * zarr-python reads (NaN as "NaN"), by path.
 */
function pythonHierarchy(dir: string): Record<string, unknown[]> {
  const script = `
import json, sys, numpy as np, numcodecs, zarr
g = zarr.open_group(sys.argv[1] if len(sys.argv) > 1 else ${JSON.stringify(dir)}, mode="w")
g.attrs["title"] = "migrated"
a = g.create_dataset("i4", data=np.arange(20, dtype="<i4").reshape(4, 5) - 7, chunks=(2, 3),
    compressor=numcodecs.Blosc("zstd", 3, shuffle=1))
a.attrs["units"] = "K"
f = g.create_dataset("f8be", shape=(10,), chunks=(3,), dtype=">f8", compressor=numcodecs.Zlib(1), fill_value=np.nan)
f[:5] = np.linspace(0, 1, 5)
g.create_dataset("fortran", data=np.arange(24, dtype="<u2").reshape(2, 3, 4) * 3, chunks=(1, 2, 3), order="F",
    compressor=numcodecs.GZip(5), filters=[numcodecs.Delta("<u2")])
g.create_dataset("nested", data=np.arange(12, dtype="<i2").reshape(3, 4), chunks=(2, 2),
    dimension_separator="/", compressor=numcodecs.LZ4())
s = g.create_group("sub")
s.attrs["level"] = 2
s.create_dataset("bool", data=np.array([True, False, True, True, False]), chunks=(2,), fill_value=None)
s.create_dataset("bytes", data=np.array([b"ab", b"c", b"", b"xyz"], dtype="S3"), chunks=(3,), compressor=None)
s.create_dataset("text", data=np.array(["ab", "c", "xyz"], dtype="<U3"), chunks=(2,))
s.create_dataset("time", data=np.array([0, 86400, -5], dtype="<M8[s]"), chunks=(2,), compressor=numcodecs.BZ2(1))
s.create_dataset("record", data=np.array([(1, 2), (3, 4)], dtype=[("x", "<i4"), ("y", "|u1")]), chunks=(1,))
def plain(v):
    return [("NaN" if isinstance(x, float) and x != x else x) for x in v]
out = {
  "i4": plain(g["i4"][:].ravel().tolist()), "f8be": plain(g["f8be"][:].tolist()),
  "fortran": g["fortran"][:].ravel().tolist(), "nested": g["nested"][:].ravel().tolist(),
  "sub/bool": g["sub/bool"][:].tolist(), "sub/text": g["sub/text"][:].tolist(),
}
print(json.dumps(out))
`;
  return JSON.parse(runPython(script));
}

describe.skipIf(!python || !built)(
  "zarr migrate (the built command) on a zarr-python 2 hierarchy",
  () => {
    it("writes a zarr.json per node, moves no chunk, and we and zarrita read the source's values", async () => {
      const dir = path.join(scratch(), "data.zarr");
      const values = pythonHierarchy(dir);
      const source = path.join(scratch(), "source.zarr");
      cpSync(dir, source, { recursive: true });
      const before = snapshot(dir);

      const result = await runBuilt(["migrate", dir, "--json"]);
      expect(result.stderr).toMatch(
        /^migrated 11 nodes \(9 arrays, 2 groups\) in .*: wrote 11 zarr.json documents; the v2 metadata stays/,
      );
      expect(result.code).toBe(0);
      const summary = JSON.parse(result.stdout);
      expect(summary).toMatchObject({ arrays: 9, groups: 2, removed: [], dry_run: false });
      expect(summary.written.at(-1)).toBe("zarr.json");
      expect(summary.written).toContain("sub/record/zarr.json");

      const after = snapshot(dir);
      // No chunk moved or changed; the v2 documents are still there.
      expect(chunksOf(after)).toEqual(chunksOf(before));
      for (const [key, hash] of before) expect(after.get(key)).toBe(hash);
      expect([...after.keys()].filter((k) => k.endsWith("zarr.json")).sort()).toEqual(
        [...summary.written].sort(),
      );

      // We read the v3 arrays (zarr.json takes precedence) with zarr-python's values.
      const store = new FsStore(dir);
      for (const [name, expected] of Object.entries(values)) {
        const got = await runBuilt(["get", dir, "--path", name, "--json"]);
        expect(got.code).toBe(0);
        expect([name, JSON.parse(got.stdout).values]).toEqual([name, expected]);
        expect((await openArray(store, { path: name })).zarrFormat).toBe(3);
      }
      // The arrays whose codecs zarrita has, read by zarrita from the migrated metadata.
      const root = zarrita.root(zarritaFolder(dir));
      for (const name of ["i4", "f8be", "fortran", "nested", "sub/bool"]) {
        const array = await zarrita.open.v3(root.resolve(name), { kind: "array" });
        const flat = cOrder(await zarrita.get(array)).map((v) =>
          typeof v === "number" && Number.isNaN(v) ? "NaN" : v,
        );
        expect([name, flat]).toEqual([name, values[name]]);
      }
      // Every array and group, values and metadata, equal to the v2 source.
      // NaN equals nothing unless --equal-nan, as in NumPy: f8be's five unwritten elements.
      const strict = await runBuilt(["compare", source, dir]);
      expect(strict.code).toBe(1);
      expect(strict.stdout).toMatch(/^\/f8be\[5\]: "NaN" != "NaN"\n/);
      expect(strict.stdout).toMatch(/\/f8be: 5 of 10 elements differ\n/);
      const compared = await runBuilt(["compare", source, dir, "--equal-nan"]);
      expect(compared.stdout).toMatch(/are equal \(9 arrays, 2 groups compared\)/);
      expect(compared.code).toBe(0);
    });

    it("writes what zarr-python 3.1 writes for the hierarchy's arrays", async () => {
      const dir = path.join(scratch(), "data.zarr");
      pythonHierarchy(dir);
      expect((await runBuilt(["migrate", dir])).code).toBe(0);
      const doc = (key: string) => parseJson(readFileSync(path.join(dir, key, "zarr.json")));
      expect(doc("")).toEqual({
        attributes: { title: "migrated" },
        zarr_format: 3,
        consolidated_metadata: null,
        node_type: "group",
      });
      expect(doc("fortran")).toMatchObject({
        data_type: "uint16",
        chunk_key_encoding: { name: "v2", configuration: { separator: "." } },
        codecs: [
          { name: "transpose", configuration: { order: [2, 1, 0] } },
          { name: "numcodecs.delta", configuration: { dtype: "<u2" } },
          { name: "bytes", configuration: { endian: "little" } },
          { name: "gzip", configuration: { level: 5 } },
        ],
      });
      expect(doc("f8be")).toMatchObject({
        fill_value: "NaN",
        codecs: [
          { name: "bytes", configuration: { endian: "big" } },
          { name: "numcodecs.zlib", configuration: { level: 1 } },
        ],
      });
      expect(doc("nested")).toMatchObject({
        chunk_key_encoding: { name: "v2", configuration: { separator: "/" } },
        codecs: [
          { name: "bytes", configuration: { endian: "little" } },
          { name: "numcodecs.lz4", configuration: { acceleration: 1 } },
        ],
      });
      expect(doc("sub/time")).toMatchObject({
        data_type: { name: "numpy.datetime64", configuration: { unit: "s", scale_factor: 1 } },
        codecs: [
          { name: "bytes", configuration: { endian: "little" } },
          { name: "numcodecs.bz2", configuration: { level: 1 } },
        ],
      });
    });

    it("--dry-run prints the documents and changes nothing", async () => {
      const dir = path.join(scratch(), "data.zarr");
      pythonHierarchy(dir);
      const before = snapshot(dir);
      const text = await runBuilt(["migrate", dir, "--dry-run", "--remove-v2-metadata"]);
      expect(text.code).toBe(0);
      expect(text.stdout).toMatch(/^would write sub\/time\/zarr.json:\n\{\n {2}"shape": \[/);
      expect(text.stdout).toMatch(
        /would write zarr.json:\n\{\n {2}"attributes": \{\n {4}"title": "migrated"/,
      );
      expect(text.stdout).toMatch(/would remove sub\/\.zattrs\n/);
      expect(text.stderr).toMatch(/^dry run: would migrate 11 nodes .*nothing was changed/);
      const json = await runBuilt(["migrate", dir, "--dry-run", "--json"]);
      const summary = JSON.parse(json.stdout);
      expect(summary.dry_run).toBe(true);
      expect(Object.keys(summary.documents)).toEqual(summary.written);
      expect(summary.documents["i4/zarr.json"].attributes).toEqual({ units: "K" });
      expect(snapshot(dir)).toEqual(before);
    });

    it("--remove-v2-metadata removes the v2 documents once the v3 ones are written", async () => {
      const dir = path.join(scratch(), "data.zarr");
      const values = pythonHierarchy(dir);
      const before = snapshot(dir);
      const result = await runBuilt(["migrate", dir, "--remove-v2-metadata"]);
      expect(result.code).toBe(0);
      const v2Documents = [...before.keys()].filter((k) =>
        /\.z(array|group|attrs|metadata)$/.test(k),
      );
      expect(result.stderr).toMatch(
        new RegExp(`removed ${v2Documents.length} v2 metadata documents`),
      );
      const after = snapshot(dir);
      expect([...after.keys()].filter((k) => /\.z(array|group|attrs|metadata)$/.test(k))).toEqual(
        [],
      );
      expect(chunksOf(after)).toEqual(chunksOf(before));
      const got = await runBuilt(["get", dir, "--path", "i4", "--json"]);
      expect(JSON.parse(got.stdout).values).toEqual(values.i4);
    });

    it("refuses an object array before writing anything, naming it and why", async () => {
      const dir = path.join(scratch(), "data.zarr");
      pythonHierarchy(dir);
      runPython(`
import numcodecs, numpy as np, zarr
g = zarr.open_group(${JSON.stringify(dir)}, mode="a")
g.create_dataset("sub/strings", data=np.array(["a", "bc"], dtype=object), object_codec=numcodecs.VLenUTF8())
`);
      const before = snapshot(dir);
      const result = await runBuilt(["migrate", dir]);
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(
        /\(node \/sub\/strings\): MigrationError: Cannot migrate \/sub\/strings to Zarr v3: object data types/,
      );
      expect(snapshot(dir)).toEqual(before);
    });

    it("stops at a zarr.json already there unless --overwrite", async () => {
      const dir = path.join(scratch(), "data.zarr");
      pythonHierarchy(dir);
      expect((await runBuilt(["migrate", dir])).code).toBe(0);
      const again = await runBuilt(["migrate", dir]);
      expect(again.code).toBe(1);
      expect(again.stderr).toMatch(/zarr.json already exists \(pass --overwrite to replace it\)/);
      expect((await runBuilt(["migrate", dir, "--overwrite"])).code).toBe(0);
    });
  },
);

describe.skipIf(!built)("zarr migrate (the built command) on hierarchies we wrote", () => {
  it("migrates our v2 arrays; a v3 hierarchy or a missing one is an error", async () => {
    const dir = scratch();
    const store = new FsStore(dir);
    await createGroup(store, { zarrFormat: 2, attributes: { a: 1 } });
    const arr = await createArray(store, {
      path: "x",
      shape: [5, 3],
      chunks: [2, 2],
      dtype: "float32",
      zarrFormat: 2,
      fillValue: -1,
    });
    await arr.set([null, null], {
      data: Float32Array.from({ length: 15 }, (_, i) => i / 4),
      shape: [5, 3],
    });
    const source = `${dir}-source`;
    cpSync(dir, source, { recursive: true });
    expect((await runBuilt(["migrate", dir])).code).toBe(0);
    expect((await runBuilt(["compare", source, dir])).code).toBe(0);
    const v3 = await runBuilt(["migrate", dir, "--remove-v2-metadata", "--overwrite"]);
    expect(v3.code).toBe(0);
    const done = await runBuilt(["migrate", dir]);
    expect(done.code).toBe(1);
    expect(done.stderr).toMatch(/already a Zarr v3 hierarchy/);
    const missing = await runBuilt(["migrate", path.join(dir, "nothing-here")]);
    expect(missing.code).toBe(2);
    expect(existsSync(path.join(dir, "nothing-here"))).toBe(false);
  });

  it("has its help", async () => {
    const help = await runBuilt(["migrate", "--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(
      /^Usage: zarr migrate <location> \[--dry-run\] \[--remove-v2-metadata\]/,
    );
    expect((await runBuilt(["--help"])).stdout).toMatch(/migrate <location>/);
  });
});
