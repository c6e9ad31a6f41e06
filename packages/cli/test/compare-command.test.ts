import { cpSync } from "node:fs";
import path from "node:path";
import { havePython, runPython, scratchFolders, startTestHttpServer } from "@z/test-utils";
import { createArray, createGroup, FsStore, openArray } from "@z/zarr";
import { describe, expect, it } from "vitest";
import { haveBuiltCli, runBuilt } from "./support/run-built.js";

const scratch = scratchFolders("z-cli-compare-");
const python = havePython("zarr compare on zarr-python 2 hierarchies");
const built = haveBuiltCli("zarr compare, the built command");

/** A v2 hierarchy zarr-python 2 wrote: a float grid (with NaN), int16 and strings. */
function pythonHierarchy(dir: string): void {
  runPython(`
import numpy as np, numcodecs, zarr
g = zarr.open_group(${JSON.stringify(dir)}, mode="w")
g.attrs["title"] = "t"
grid = np.arange(60, dtype="<f4").reshape(6, 10) / 4
grid[5, 9] = np.nan
g.create_dataset("grid", data=grid, chunks=(4, 3), compressor=numcodecs.Zlib(3))
g.create_dataset("counts", data=np.arange(7, dtype=">i2"), chunks=(3,), order="F")
g.create_dataset("sub/names", data=np.array(["ab", "c", ""], dtype="<U2"), chunks=(2,))
`);
}

/** The same hierarchy written by us as v3, other chunking and codecs, `grid` changed by `edit`. */
async function ourCopy(dir: string, edit: (grid: Float32Array) => void = () => {}) {
  const store = new FsStore(dir);
  await createGroup(store, { attributes: { title: "t" } });
  await createGroup(store, { path: "sub" });
  const grid = Float32Array.from({ length: 60 }, (_, i) => i / 4);
  grid[59] = Number.NaN;
  edit(grid);
  const a = await createArray(store, {
    path: "grid",
    shape: [6, 10],
    chunks: [5, 5],
    dtype: "float32",
    compressors: [{ name: "zstd" }],
  });
  await a.set([null, null], { data: grid, shape: [6, 10] });
  const counts = await createArray(store, {
    path: "counts",
    shape: [7],
    chunks: [7],
    dtype: "int16",
    shards: [7],
  });
  await counts.set([null], { data: Int16Array.from({ length: 7 }, (_, i) => i), shape: [7] });
  const names = await createArray(store, {
    path: "sub/names",
    shape: [3],
    chunks: [3],
    dtype: "<U2",
  });
  await names.set([null], { data: ["ab", "c", ""], shape: [3] });
}

describe.skipIf(!python || !built)(
  "zarr compare (the built command): zarr-python 2 v2 against our v3",
  () => {
    it("equal values stored differently are equal (exit 0); NaN needs --equal-nan", async () => {
      const a = scratch();
      const b = scratch();
      pythonHierarchy(a);
      await ourCopy(b);
      const equal = await runBuilt(["compare", a, b, "--equal-nan"]);
      expect(equal.stdout).toBe(`${a} and ${b} are equal (3 arrays, 2 groups compared)\n`);
      expect(equal.code).toBe(0);
      const strict = await runBuilt(["compare", a, b]);
      expect(strict.code).toBe(1);
      expect(strict.stdout).toBe(
        `/grid[5, 9]: "NaN" != "NaN"\n/grid: 1 of 60 elements differ\n` +
          `${a} and ${b} differ: 0 metadata differences, 1 differing element in 1 array (3 arrays, 2 groups compared)\n`,
      );
    });

    it("prints the first differences with index and values, and a summary (exit 1); --json", async () => {
      const a = scratch();
      const b = scratch();
      pythonHierarchy(a);
      await ourCopy(b, (grid) => {
        for (let i = 0; i < 14; i++) grid[i * 4] += 0.5;
        grid[0] = 100;
      });
      const result = await runBuilt(["compare", a, b, "--equal-nan"]);
      expect(result.code).toBe(1);
      const lines = result.stdout.trimEnd().split("\n");
      expect(lines.slice(0, 3)).toEqual([
        "/grid[0, 0]: 0 != 100",
        "/grid[0, 4]: 1 != 1.5",
        "/grid[0, 8]: 2 != 2.5",
      ]);
      expect(lines).toContain("/grid: ... (4 more)");
      expect(lines).toContain("/grid: 14 of 60 elements differ, largest absolute difference 100");
      expect(lines.at(-1)).toBe(
        `${a} and ${b} differ: 0 metadata differences, 14 differing elements in 1 array (3 arrays, 2 groups compared)`,
      );
      const json = JSON.parse((await runBuilt(["compare", a, b, "--equal-nan", "--json"])).stdout);
      expect(json).toMatchObject({ equal: false, arrays: 3, groups: 2, metadata: [] });
      expect(json.values).toHaveLength(1);
      expect(json.values[0]).toMatchObject({
        path: "/grid",
        compared: 60,
        differing: 14,
        max_abs_difference: 100,
      });
      expect(json.values[0].first[1]).toEqual({ index: [0, 4], a: 1, b: 1.5 });
      // Within a tolerance: |a - b| <= atol + rtol * |b|.
      const close = await runBuilt([
        "compare",
        a,
        b,
        "--equal-nan",
        "--atol",
        "0.5",
        "--path",
        "grid",
      ]);
      expect(close.stdout).toMatch(/^\/grid\[0, 0\]: 0 != 100\n\/grid: 1 of 60 elements differ/);
      expect(
        (
          await runBuilt([
            "compare",
            a,
            b,
            "--equal-nan",
            "--atol",
            "0.5",
            "--rtol",
            "1",
            "--path",
            "grid",
          ])
        ).code,
      ).toBe(0);
      // Metadata only: the values are not read.
      const meta = await runBuilt(["compare", a, b, "--metadata-only", "--json"]);
      expect(meta.code).toBe(0);
      expect(JSON.parse(meta.stdout)).toEqual({
        equal: true,
        arrays: 3,
        groups: 2,
        metadata: [],
        values: [],
      });
    });
  },
);

describe.skipIf(!built)("zarr compare (the built command): metadata, errors and locations", () => {
  it("reports metadata differences and members only one side has", async () => {
    const a = scratch();
    const b = scratch();
    await ourCopy(a);
    await ourCopy(b);
    const store = new FsStore(b);
    await createArray(store, { path: "extra", shape: [1], dtype: "uint8" });
    const grid = await openArray(store, { path: "grid" });
    await grid.updateAttributes({ units: "K" });
    await createArray(store, { path: "counts", shape: [8], dtype: "int16", overwrite: true });
    const result = await runBuilt(["compare", a, b, "--equal-nan"]);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe(
      `/counts: shape [7] != [8]\n/extra: only in ${b}\n/grid: attributes {} != {"units":"K"}\n` +
        `${a} and ${b} differ: 3 metadata differences, 0 differing elements in 0 arrays (3 arrays, 2 groups compared)\n`,
    );
  });

  it("exits 2 on an error and on a bad option, 1 is kept for 'different'", async () => {
    const a = scratch();
    await ourCopy(a);
    const missing = await runBuilt(["compare", a, path.join(a, "nothing")]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/No such directory or zip file/);
    const noNode = await runBuilt(["compare", a, a, "--path", "not/there"]);
    expect(noNode.code).toBe(2);
    expect(noNode.stderr).toMatch(/^zarr: .*NotFoundError/);
    const badTolerance = await runBuilt(["compare", a, a, "--rtol", "-1"]);
    expect(badTolerance.code).toBe(2);
    expect(badTolerance.stderr).toMatch(/--rtol must be a number >= 0, got -1/);
    const help = await runBuilt(["compare", "--help"]);
    expect(help.stdout).toMatch(/^Usage: zarr compare <a> <b> \[--path P\] \[--rtol R\]/);
  });

  it("reads either side over HTTP", async () => {
    const a = scratch();
    await ourCopy(a);
    const b = `${a}-served`;
    cpSync(a, b, { recursive: true });
    const server = await startTestHttpServer({ root: b });
    try {
      const same = await runBuilt(["compare", a, `${server.url}`, "--path", "grid", "--equal-nan"]);
      expect(same.stdout).toMatch(/are equal \(1 array, 0 groups compared\)/);
      expect(same.code).toBe(0);
      const grid = await openArray(new FsStore(b), { path: "grid" });
      await grid.set([0, 1], 7);
      const different = await runBuilt(["compare", a, server.url, "--path", "grid", "--equal-nan"]);
      expect(different.stdout).toMatch(/^\/grid\[0, 1\]: 0.25 != 7\n/);
      expect(different.code).toBe(1);
      expect(server.requests.some((r) => r.path === "grid/zarr.json")).toBe(true);
    } finally {
      await server.stop();
    }
  });
});
