import {
  consolidateMetadata,
  createGroup,
  openConsolidated,
  type ZarrArray,
  type ZarrGroup,
} from "@z/array";
import { FsStore } from "@z/store-fs";
import { havePython, runPython, tempDir } from "@z/test-utils";
import { afterAll, describe, expect, it } from "vitest";

/**
 * A v2 hierarchy on disk, moved and partly deleted through ZarrGroup, read back by zarr-python
 * 2 (another implementation): the tree, the values, the attributes and the consolidated
 * metadata agree with what was moved.
 */

const suite = "group move read by zarr-python";
const sandbox = tempDir("z-array-group-move-py-");
afterAll(sandbox.remove);

describe.skipIf(!havePython(suite))(suite, () => {
  it("zarr-python 2 reads a moved v2 hierarchy, consolidated metadata included", async () => {
    const dir = `${sandbox.dir}/moved.zarr`;
    const store = new FsStore(dir, { fsync: false });
    const root = await createGroup(store, { zarrFormat: 2, attributes: { title: "survey" } });
    const raw = await root.createGroup("raw", { attributes: { source: "station 4" } });
    const t = await raw.createArray("t", {
      shape: [4, 3],
      chunks: [2, 2],
      dtype: "float32",
      fillValue: -1,
      compressors: [{ name: "gzip", configuration: { level: 1 } }],
    });
    await t.set(null, { data: Float32Array.from({ length: 12 }, (_, i) => i / 2), shape: [4, 3] });
    await t.updateAttributes({ units: "K" });
    const n = await root.createArray("raw/day1/n", { shape: [5], chunks: [2], dtype: "int64" });
    await n.set(null, { data: BigInt64Array.of(1n, 2n, 3n, 4n, 5n), shape: [5] });
    await root.createArray("junk", { shape: [1], dtype: "uint8" });
    await consolidateMetadata(store);

    const listed = await openConsolidated(store);
    await listed.move("raw", "clean/v1");
    await listed.delete("junk");
    await listed.move("clean/v1/day1/n", "clean/counts");
    expect((await listed.members({ maxDepth: null })).map(([p]) => p)).toEqual([
      "clean",
      "clean/counts",
      "clean/v1",
      "clean/v1/day1",
      "clean/v1/t",
    ]);
    expect(
      Array.from(
        (await ((await listed.get("clean/v1/t")) as ZarrArray).get()).data as Float32Array,
      ),
    ).toHaveLength(12);

    const out = runPython(
      `
import json, zarr
path = ${JSON.stringify(dir)}
def tree(g):
    out = []
    g.visit(lambda name: out.append(name))
    return sorted(out)
plain = zarr.open_group(path, mode="r")
cons = zarr.open_consolidated(path, mode="r")
t = plain["clean/v1/t"]
print(json.dumps({
  "tree": tree(plain),
  "consolidated": tree(cons),
  "t": t[:].ravel().tolist(),
  "t_fill": float(t.fill_value),
  "t_attrs": dict(t.attrs),
  "v1_attrs": dict(plain["clean/v1"].attrs),
  "root_attrs": dict(plain.attrs),
  "counts": cons["clean/counts"][:].tolist(),
}))
`,
    );
    const read = JSON.parse(out);
    const expectedTree = ["clean", "clean/counts", "clean/v1", "clean/v1/day1", "clean/v1/t"];
    expect(read.tree).toEqual(expectedTree);
    expect(read.consolidated).toEqual(expectedTree);
    expect(read.t).toEqual(Array.from({ length: 12 }, (_, i) => i / 2));
    expect(read.t_fill).toBe(-1);
    expect(read.t_attrs).toEqual({ units: "K" });
    expect(read.v1_attrs).toEqual({ source: "station 4" });
    expect(read.root_attrs).toEqual({ title: "survey" });
    expect(read.counts).toEqual([1, 2, 3, 4, 5]);
    const day1 = (await listed.get("clean/v1/day1")) as ZarrGroup;
    expect(await day1.size()).toBe(0);
  });
});
