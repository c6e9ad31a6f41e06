import path from "node:path";
import { ReferenceStore } from "@z/store-reference";
import { havePython, runPython, tempDir } from "@z/test-utils";
import { openArray, openGroup } from "@z/zarr";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/*
 * An HDF5 file made by h5py, indexed by hand as kerchunk would index it (contiguous,
 * uncompressed datasets: one chunk each, at the offset h5py reports), read as Zarr through the
 * reference store and compared with h5py's own values.
 */

const present = havePython("kerchunk references over HDF5", ["h5py", "numpy"]);

interface DatasetFacts {
  offset: number;
  nbytes: number;
  shape: number[];
  dtype: string;
  values: number[];
}

const MAKE_HDF5 = `
import h5py, json, sys
import numpy as np
path = sys.argv[1] if len(sys.argv) > 1 else sys.stdin.read().strip()
with h5py.File(path, "w") as f:
    f.create_dataset("temperature", data=(np.arange(30, dtype="<f8").reshape(6, 5) * 1.5 - 7.25))
    f.create_dataset("counts", data=np.array([3, -1, 4, -1, 5, -9, 2, 6], dtype="<i4"))
    g = f.create_group("nested")
    g.create_dataset("levels", data=np.linspace(0, 1, 7, dtype="<f4").reshape(7, 1))
    g.create_dataset("big_endian", data=np.array([1, 256, -2], dtype=">i2"))
facts = {}
with h5py.File(path, "r") as f:
    def visit(name, obj):
        if isinstance(obj, h5py.Dataset):
            facts[name] = {
                "offset": int(obj.id.get_offset()),
                "nbytes": int(obj.id.get_storage_size()),
                "shape": list(obj.shape),
                "dtype": obj.dtype.str,
                "values": obj[()].ravel().tolist(),
            }
    f.visititems(visit)
print(json.dumps(facts))
`;

let sandbox: { dir: string; remove: () => void };
let file: string;
let facts: Record<string, DatasetFacts>;

beforeAll(() => {
  if (!present) return;
  sandbox = tempDir("z-ref-hdf5-");
  file = path.join(sandbox.dir, "sample.h5");
  facts = JSON.parse(runPython(MAKE_HDF5, file));
});
afterAll(() => sandbox?.remove());

/** Zarr v2 metadata of one contiguous dataset: a single chunk, no compressor. */
function zarray(d: DatasetFacts) {
  return {
    zarr_format: 2,
    shape: d.shape,
    chunks: d.shape,
    dtype: d.dtype,
    compressor: null,
    filters: null,
    fill_value: null,
    order: "C",
  };
}

const chunkKey = (d: DatasetFacts) => d.shape.map(() => "0").join(".");

describe.skipIf(!present)("kerchunk references over an h5py file", () => {
  it("version 0: every dataset reads as h5py reads it", async () => {
    const refs: Record<string, unknown> = { ".zgroup": JSON.stringify({ zarr_format: 2 }) };
    for (const [name, d] of Object.entries(facts)) {
      refs[`${name}/.zarray`] = JSON.stringify(zarray(d));
      refs[`${name}/.zattrs`] = { source: "h5py", name };
      refs[`${name}/${chunkKey(d)}`] = [file, d.offset, d.nbytes];
    }
    for (const name of ["nested"]) refs[`${name}/.zgroup`] = JSON.stringify({ zarr_format: 2 });
    const store = new ReferenceStore(JSON.stringify(refs));
    expect(Object.keys(facts).sort()).toEqual([
      "counts",
      "nested/big_endian",
      "nested/levels",
      "temperature",
    ]);
    for (const [name, d] of Object.entries(facts)) {
      const array = await openArray(store, { path: name });
      expect(array.shape).toEqual(d.shape);
      const { data } = await array.get(null);
      expect(Array.from(data as ArrayLike<number>)).toEqual(d.values);
      expect(array.attrs).toEqual({ source: "h5py", name });
    }
    const root = await openGroup(store);
    const names = (await root.members()).map(([name]) => name).sort();
    expect(names).toEqual(["counts", "nested", "temperature"]);
  });

  it("version 1: the file named by a template, metadata inline as base64", async () => {
    const d = facts.temperature;
    const b64 = (text: string) => `base64:${Buffer.from(text).toString("base64")}`;
    const doc = {
      version: 1,
      templates: { h5: `file://${file}` },
      refs: {
        ".zgroup": b64(JSON.stringify({ zarr_format: 2 })),
        "t/.zarray": b64(JSON.stringify(zarray(d))),
        "t/0.0": ["{{h5}}", d.offset, d.nbytes],
      },
    };
    const array = await openArray(new ReferenceStore(doc), { path: "t" });
    const { data } = await array.get(null);
    expect(Array.from(data as Float64Array)).toEqual(d.values);
  });

  it("a reference document in a file next to the HDF5 file, with a relative target", async () => {
    const d = facts.counts;
    const doc = {
      ".zarray": JSON.stringify(zarray(d)),
      "0": ["sample.h5", d.offset, d.nbytes],
    };
    const { writeFileSync } = await import("node:fs");
    const { pathToFileURL } = await import("node:url");
    const refsFile = path.join(sandbox.dir, "refs.json");
    writeFileSync(refsFile, JSON.stringify(doc));
    const store = await ReferenceStore.fromUrl(pathToFileURL(refsFile).href);
    const { data } = await (await openArray(store)).get(null);
    expect(Array.from(data as Int32Array)).toEqual(d.values);
  });
});
