import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fixturePath, haveFixtures, havePython, runPython, scratchFolders } from "@z/test-utils";
import { createArray, createGroup, FsStore, openGroup, slice } from "@z/zarr";
import { describe, expect, it } from "vitest";
import { runBin } from "./support/run-bin.js";

const scratch = scratchFolders("z-cli-bin-");

/** A v2 or v3 hierarchy: a group `g` holding a 4x6 float32 array `g/grid` (values i / 3). */
async function sample(dir: string, zarrFormat: 2 | 3) {
  const store = new FsStore(dir);
  await createGroup(store, { zarrFormat, attributes: { title: "sample" } });
  const arr = await createArray(store, {
    path: "g/grid",
    shape: [4, 6],
    chunks: [2, 3],
    dtype: "float32",
    zarrFormat,
    fillValue: 0.1,
    attributes: { units: "K" },
  });
  await arr.set([null, null], {
    data: Float32Array.from({ length: 24 }, (_, i) => i / 3),
    shape: [4, 6],
  });
  return dir;
}

describe("zarr --version and help", () => {
  it("prints the package version", async () => {
    const { version } = JSON.parse(
      readFileSync(path.resolve(import.meta.dirname, "../package.json"), "utf8"),
    );
    const result = await runBin(["--version"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(`zarr (@z/cli) ${version}\n`);
  });

  it("prints a command's own help for zarr <command> --help and zarr help <command>", async () => {
    for (const args of [
      ["info", "--help"],
      ["help", "info"],
      ["info", "-h"],
    ]) {
      const result = await runBin(args);
      expect(result.code).toBe(0);
      expect(result.stdout).toMatch(/^Usage: zarr info <location> \[--path P\] \[--json\]/);
      expect(result.stdout).not.toMatch(/Commands:/);
    }
    const consolidate = await runBin(["consolidate", "--help"]);
    expect(consolidate.stdout).toMatch(/^Usage: zarr consolidate <location>/);
    const global = await runBin(["--help"]);
    expect(global.stdout).toMatch(/Commands:/);
    expect(global.stdout).toMatch(/consolidate <location>/);
  });

  it("refuses an option the command does not take, with that command's usage", async () => {
    const result = await runBin(["info", "somewhere", "--select", "1"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/zarr info does not take --select/);
    expect(result.stderr).toMatch(/Usage: zarr info </);
  });
});

describe("zarr get --select with negative numbers", () => {
  it("takes -1,2:5 as the value of --select, spaced or with =", async () => {
    const dir = await sample(scratch(), 3);
    const spaced = await runBin(["get", dir, "--path", "g/grid", "--select", "-1,2:5", "--json"]);
    const joined = await runBin(["get", dir, "--path", "g/grid", "--select=-1,2:5", "--json"]);
    expect(spaced.stderr).toBe("");
    expect(spaced.code).toBe(0);
    expect(JSON.parse(spaced.stdout)).toEqual({
      shape: [3],
      dtype: "float32",
      fill_value: 0.1,
      values: [20 / 3, 7, 22 / 3].map((v) => Number(Math.fround(v).toPrecision(8))),
    });
    expect(joined.stdout).toBe(spaced.stdout);
    const human = await runBin(["get", dir, "--path", "g/grid", "--select", "-2:,-1"]);
    expect(human.stdout).toBe("[5.6666665 7.6666665]\n");
  });

  it("reports --select without a value as a usage error", async () => {
    const result = await runBin(["get", "x", "--select"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--select needs a value/);
  });
});

describe("float32 values with their shortest digits", () => {
  it.skipIf(!havePython("float32 digits", ["numpy"]))(
    "prints each float32 as NumPy's repr does, in --json and in the print",
    async () => {
      const values = Float32Array.from([0.1, 1 / 3, 1e-7, 3.4028234663852886e38, -2.5, 16777217]);
      const dir = scratch();
      const arr = await createArray(new FsStore(dir), {
        shape: [values.length],
        chunks: [values.length],
        dtype: "float32",
        fillValue: 0,
      });
      await arr.set(null, { data: values, shape: [values.length] });
      const reprs = JSON.parse(
        runPython(
          "import json, sys, numpy as np; print(json.dumps([repr(np.float32(v)) for v in json.loads(sys.stdin.read())]))",
          JSON.stringify(Array.from(values)),
        ),
      ) as string[];
      const json = await runBin(["get", dir, "--json"]);
      const printed = /"values":\[(.*)\]/.exec(json.stdout)![1].split(",");
      // numpy 1.x: "0.1"; numpy 2: "np.float32(0.1)".
      const numpyDigits = reprs.map((r) => r.replace(/^np\.float32\((.*)\)$/, "$1"));
      expect(printed.map(Number)).toEqual(numpyDigits.map(Number));
      expect(printed.map((p) => Math.fround(Number(p)))).toEqual(Array.from(values));
      const human = await runBin(["get", dir, "--select", "0"]);
      expect(human.stdout).toBe("0.1\n");
    },
  );
});

describe("zarr info --json and tree --json", () => {
  it("prints one JSON document describing the node", async () => {
    const dir = await sample(scratch(), 2);
    const array = await runBin(["info", dir, "--path", "g/grid", "--json"]);
    expect(array.code).toBe(0);
    expect(JSON.parse(array.stdout)).toEqual({
      node_type: "array",
      zarr_format: 2,
      path: "/g/grid",
      shape: [4, 6],
      chunks: [2, 3],
      shards: null,
      dtype: "<f4",
      fill_value: 0.1,
      order: "C",
      codecs: expect.any(Array),
      dimension_names: null,
      attributes: { units: "K" },
      chunks_in_grid: 4,
      chunks_stored: 4,
      nbytes: 96,
    });
    const group = await runBin(["info", dir, "--json"]);
    expect(JSON.parse(group.stdout)).toEqual({
      node_type: "group",
      zarr_format: 2,
      path: "/",
      attributes: { title: "sample" },
      consolidated: false,
      members: { arrays: 0, groups: 1 },
    });
  });

  it("prints the hierarchy as nested nodes", async () => {
    const dir = await sample(scratch(), 3);
    writeFileSync(path.join(dir, "g", "broken"), "");
    await createGroup(new FsStore(dir), { path: "g/bad" });
    writeFileSync(path.join(dir, "g", "bad", "zarr.json"), "{not json");
    const result = await runBin(["tree", dir, "--json"]);
    expect(result.code).toBe(0);
    const tree = JSON.parse(result.stdout);
    expect(tree).toMatchObject({ node_type: "group", zarr_format: 3, path: "/" });
    expect(tree.children).toHaveLength(1);
    const g = tree.children[0];
    expect(g).toMatchObject({ name: "g", node_type: "group", path: "/g" });
    expect(g.children.map((c: { name: string }) => c.name)).toEqual(["bad", "grid"]);
    expect(g.children[0]).toMatchObject({ path: "/g/bad", error: { name: "MetadataError" } });
    expect(g.children[1]).toEqual({
      name: "grid",
      node_type: "array",
      zarr_format: 3,
      path: "/g/grid",
      shape: [4, 6],
      chunks: [2, 3],
      shards: null,
      dtype: "float32",
      fill_value: 0.1,
    });
  });
});

describe("errors name the location and the node, and hints name CLI flags", () => {
  it("says where a node is missing", async () => {
    const dir = scratch();
    const result = await runBin(["info", dir, "--path", "a/b"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `zarr: ${dir} (node /a/b): NotFoundError: No array or group at "/a/b": no Zarr metadata (zarr.json, .zarray or .zgroup) there\n`,
    );
  });

  it("names a plain file that is not a zip archive", async () => {
    const file = path.join(scratch(), "notes.txt");
    writeFileSync(file, "not zarr");
    const result = await runBin(["info", file]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^zarr: .*notes\.txt \(node \/\): ZipError: /);
    expect(result.stderr).toMatch(/notes\.txt is a file, so it was read as a \.zip archive/);
  });

  it("points at zarr tree and --path when get is given a group", async () => {
    const dir = await sample(scratch(), 3);
    const result = await runBin(["get", dir, "--path", "g"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/\(node \/g\): NotFoundError: No array at "\/g": it is a group/);
    expect(result.stderr).toMatch(/zarr tree \S+ lists its arrays; choose one with --path/);
    expect(result.stderr).not.toMatch(/openGroup/);
  });

  it("names --overwrite, not the library option, when a copy would replace a node", async () => {
    const source = await sample(scratch(), 3);
    const target = scratch();
    expect((await runBin(["copy", source, target])).code).toBe(0);
    const again = await runBin(["copy", source, target]);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/pass --overwrite/);
    expect(again.stderr).not.toMatch(/overwrite: true/);
    expect(again.stderr).toContain(`${source} → ${target}`);
  });
});

describe("zarr consolidate", () => {
  it("writes v2 .zmetadata that zarr-python opens", async () => {
    const dir = await sample(scratch(), 2);
    const result = await runBin(["consolidate", dir]);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("Consolidated 2 nodes below / into .zmetadata\n");
    expect(existsSync(path.join(dir, ".zmetadata"))).toBe(true);
    if (havePython("zarr consolidate v2", ["zarr"])) {
      const listed = runPython(
        `import zarr, sys; g = zarr.open_consolidated(${JSON.stringify(dir)}); print(g["g/grid"].shape, float(g["g/grid"][3, 5]))`,
      );
      expect(listed.trim()).toBe(`(4, 6) ${Math.fround(23 / 3)}`);
    }
  });

  it("writes v3 inline consolidated metadata and refuses read-only locations", async () => {
    const dir = await sample(scratch(), 3);
    const result = await runBin(["consolidate", dir]);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(
      "Consolidated 2 nodes below / into the consolidated_metadata of zarr.json\n",
    );
    const root = JSON.parse(readFileSync(path.join(dir, "zarr.json"), "utf8"));
    expect(Object.keys(root.consolidated_metadata.metadata).sort()).toEqual(["g", "g/grid"]);
    expect((await openGroup(new FsStore(dir))).consolidated?.size).toBe(2);
    const array = await runBin(["consolidate", dir, "--path", "g/grid"]);
    expect(array.code).toBe(1);
    expect(array.stderr).toMatch(/\(node \/g\/grid\): NotFoundError: .*it is an array/);
  });
});

describe.skipIf(!haveFixtures("zarr logging"))("logging through ZARR_LOG and --verbose", () => {
  const fixture = () => fixturePath("zarrita", "v3", "data.zarr");

  it("ZARR_LOG=store shows every store request on stderr, stdout stays one JSON object", async () => {
    const result = await runBin(["get", fixture(), "--path", "1d.chunked.i2", "--json"], {
      ZARR_LOG: "store",
    });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout).values).toEqual([1, 2, 3, 4]);
    const lines = result.stderr.trimEnd().split("\n");
    expect(lines[0]).toMatch(
      /^zarr:store:fs debug get "1d\.chunked\.i2\/zarr\.json" → \d+ B in \d+\.\d ms$/,
    );
    const chunks = lines.filter((l) => /get "1d\.chunked\.i2\/c\/[01]" → 20 B/.test(l));
    expect(chunks).toHaveLength(2);
    expect(lines.every((l) => l.startsWith("zarr:store:fs debug "))).toBe(true);
  });

  it("logs nothing by default; -v logs array operations at info, -vv adds requests and codecs", async () => {
    const args = ["get", fixture(), "--path", "1d.chunked.i2", "--json"];
    expect((await runBin(args)).stderr).toBe("");
    const verbose = await runBin([...args, "-v"]);
    expect(verbose.stderr).toMatch(
      /^zarr:array info opened array \/1d\.chunked\.i2 \(v3, shape \[4\], int16\)$/m,
    );
    expect(verbose.stderr).toMatch(
      /^zarr:array info read \/1d\.chunked\.i2 selection shape \[4\], 2 chunks in /m,
    );
    expect(verbose.stderr).not.toMatch(/debug/);
    const debug = await runBin([...args, "-vv"]);
    expect(debug.stderr).toMatch(/^zarr:store:fs debug get /m);
    expect(debug.stderr).toMatch(
      /^zarr:codec debug decoded chunk \[2\] ⇄ 20 B through bytes → blosc in /m,
    );
  });

  it("ZARR_LOG levels and namespaces combine: codec at debug, store off", async () => {
    const result = await runBin(["get", fixture(), "--path", "1d.chunked.i2", "--json"], {
      ZARR_LOG: "*:info,codec:debug,store:off",
    });
    expect(result.stderr).toMatch(/^zarr:codec debug decoded/m);
    expect(result.stderr).toMatch(/^zarr:array info read/m);
    expect(result.stderr).not.toMatch(/zarr:store/);
  });

  it("warns about a malformed ZARR_LOG and carries on", async () => {
    const result = await runBin(["get", fixture(), "--path", "1d.chunked.i2", "--json"], {
      ZARR_LOG: "store:fs:loud/",
    });
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(
      /ignoring ZARR_LOG: ZARR_LOG item "store:fs:loud\/" is not namespace\[:level\]/,
    );
  });
});

describe("zarr get summarises a large array", () => {
  it("reads only the chunks holding the items it shows", async () => {
    const dir = scratch();
    const arr = await createArray(new FsStore(dir), {
      shape: [100_000],
      chunks: [1000],
      dtype: "int32",
    });
    await arr.set(null, {
      data: Int32Array.from({ length: 100_000 }, (_, i) => i),
      shape: [100_000],
    });
    const result = await runBin(["get", dir], { ZARR_LOG: "store" });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("[    0     1     2 ... 99997 99998 99999]\n");
    // Whole chunks are read with `get`, or with `getInto` into a reused buffer.
    const chunkRead = / (?:get|getInto) "(c\/\d+)"/;
    const chunkReads = result.stderr.split("\n").filter((line) => chunkRead.test(line));
    expect(chunkReads.map((line) => chunkRead.exec(line)![1]).sort()).toEqual(["c/0", "c/99"]);
  });
});

describe("a reader that closes the pipe early", () => {
  it("ends quietly", async () => {
    const dir = scratch();
    const arr = await createArray(new FsStore(dir), {
      shape: [200000],
      chunks: [50000],
      dtype: "int32",
    });
    await arr.set([slice(0, 200000)], 7);
    const { spawn } = await import("node:child_process");
    const result = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const child = spawn(
        process.execPath,
        [
          "--conditions=source",
          "--import",
          path.join(import.meta.dirname, "support/register-ts.mjs"),
          path.join(import.meta.dirname, "../src/bin.ts"),
          "get",
          dir,
          "--json",
        ],
        { stdio: ["ignore", "pipe", "pipe"] },
      );
      let stderr = "";
      child.stderr.on("data", (d) => {
        stderr += d;
      });
      child.stdout.once("data", () => child.stdout.destroy());
      child.on("close", (code) => resolve({ code, stderr }));
    });
    expect(result.stderr).not.toMatch(/EPIPE|Unhandled/);
    expect(result.code).toBe(0);
  });
});
