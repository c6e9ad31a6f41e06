import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import {
  deferredReason,
  expectedArrays,
  fixturePath,
  haveFixtures,
  repositoryRoot,
  runCli,
  scratchFolders,
} from "@z/test-utils";
import { createArray, FsStore, openArray, slice } from "@z/zarr";
import { describe, expect, it } from "vitest";

const scratch = scratchFolders("z-cli-");
const run = runCli;

async function sampleArray(dir: string, zarrFormat: 2 | 3) {
  const store = new FsStore(dir);
  const arr = await createArray(store, {
    path: "grid",
    shape: [4, 6],
    chunks: [3, 4],
    dtype: "float32",
    zarrFormat,
    fillValue: Number.NaN,
    attributes: { units: "K" },
    compressors: [{ name: "gzip", configuration: { level: 1 } }],
  });
  await arr.set([slice(0, 3), null], {
    data: Float32Array.from({ length: 18 }, (_, i) => i / 2),
    shape: [3, 6],
  });
  return arr;
}

describe("zarr get", () => {
  it("applies --select with negative steps and integers", async () => {
    const dir = scratch();
    await sampleArray(dir, 3);
    const { code, stdout } = await run(
      "get",
      dir,
      "--path",
      "grid",
      "--select",
      "::-1, 1:5:2",
      "--json",
    );
    expect(code).toBe(0);
    const result = JSON.parse(stdout);
    expect(result.shape).toEqual([4, 2]);
    expect(result.dtype).toBe("float32");
    expect(result.fill_value).toBe("NaN");
    expect(result.values).toEqual(["NaN", "NaN", 6.5, 7.5, 3.5, 4.5, 0.5, 1.5]);
  });

  it("reports a bad selection, a missing node and a usage error with exit codes", async () => {
    const dir = scratch();
    await sampleArray(dir, 3);
    const bounds = await run("get", dir, "--path", "grid", "--select", "4", "--json");
    expect(bounds.code).toBe(1);
    expect(bounds.stderr).toMatch(/BoundsError: Index 4 is out of bounds for axis 0 with size 4/);
    const missing = await run("get", dir, "--path", "nope", "--json");
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/NotFoundError/);
    const usage = await run("get", dir, "--bogus");
    expect(usage.code).toBe(2);
    expect(usage.stderr).toMatch(/Usage: zarr/);
  });
});

describe("zarr info and tree", () => {
  it("summarises an array and a group", async () => {
    const dir = scratch();
    await sampleArray(dir, 2);
    const info = await run("info", dir, "--path", "grid");
    expect(info.code).toBe(0);
    expect(info.stdout).toMatch(/Type\s+: Array/);
    expect(info.stdout).toMatch(/Shape\s+: \(4, 6\)/);
    expect(info.stdout).toMatch(/Chunks\s+: 4 in the grid, 2 stored/);
    expect(info.stdout).toMatch(/Data type\s+: float32 \(<f4\)/);
    expect(info.stdout).toMatch(/Codecs\s+: bytes\(endian="little"\) -> numcodecs.gzip\(level=1\)/);
    expect(info.stdout).toMatch(/Order\s+: C/);
    const group = await run("info", dir);
    expect(group.stdout).toMatch(/Members\s+: 1 \(1 arrays, 0 groups\)/);
  });

  it.skipIf(!haveFixtures("zarr tree"))("draws the zarrita v3 fixture hierarchy", async () => {
    const { code, stdout } = await run("tree", fixturePath("zarrita", "v3", "data.zarr"));
    expect(code).toBe(0);
    expect(stdout.split("\n")[0]).toBe("/ (group, v3)");
    expect(stdout).toContain("├── 1d.chunked.i2 (4,) int16 chunks=(2,)");
    expect(stdout).toMatch(/└── my group with spaces\//);
    expect(stdout).toMatch(/│ {3}└── nested\//);
  });
});

describe("zarr copy", () => {
  it("converts a v2 hierarchy to v3 and back, values and attributes intact", async () => {
    const source = scratch();
    await sampleArray(source, 2);
    const v3 = scratch();
    const there = await run("copy", source, v3, "--format", "3", "--compressor", "blosc");
    expect(there.code).toBe(0);
    const copied = await openArray(new FsStore(v3), { path: "grid" });
    expect(copied.zarrFormat).toBe(3);
    expect(copied.attrs).toEqual({ units: "K" });
    expect(copied.metadata.codecs.map((c) => c.name)).toEqual(["bytes", "blosc"]);
    const original = await openArray(new FsStore(source), { path: "grid" });
    expect(Array.from((await copied.get()).data)).toEqual(Array.from((await original.get()).data));
    const back = scratch();
    const again = await run(
      "copy",
      v3,
      back,
      "--format",
      "2",
      "--chunks",
      "2,2",
      "--compressor",
      "none",
    );
    expect(again.code).toBe(0);
    const v2 = await openArray(new FsStore(back), { path: "grid" });
    expect(v2.zarrFormat).toBe(2);
    expect(v2.chunks).toEqual([2, 2]);
    expect(v2.metadata.v2?.compressor).toBeNull();
    expect(Array.from((await v2.get()).data)).toEqual(Array.from((await original.get()).data));
  });

  it.skipIf(!haveFixtures("zarr copy"))(
    "copies every readable zarrita v2 fixture array to v3",
    async () => {
      const entries = expectedArrays().filter(
        (e) => e.label.startsWith("zarrita/v2") && deferredReason(e) === undefined,
      );
      const target = scratch();
      const sourceRoot = fixturePath("zarrita", "v2", "data.zarr");
      const source = new FsStore(sourceRoot, { readOnly: true });
      for (const entry of entries) {
        const { code, stderr } = await run(
          "copy",
          sourceRoot,
          target,
          "--path",
          entry.path,
          "--format",
          "3",
        );
        expect(code, stderr).toBe(0);
        const copy = await openArray(new FsStore(target), { path: entry.path });
        const original = await openArray(source, { path: entry.path });
        expect(copy.zarrFormat).toBe(3);
        expect(copy.shape).toEqual(original.shape);
        expect(copy.attrs).toEqual(original.attrs);
        const a = await copy.get();
        const b = await original.get();
        expect(Array.from(a.data as ArrayLike<unknown>)).toEqual(
          Array.from(b.data as ArrayLike<unknown>),
        );
      }
      expect(entries.length).toBeGreaterThan(20);
    },
  );

  it("refuses to overwrite an existing destination node without --overwrite", async () => {
    const source = scratch();
    await sampleArray(source, 3);
    const target = scratch();
    expect((await run("copy", source, target)).code).toBe(0);
    const second = await run("copy", source, target);
    expect(second.code).toBe(1);
    expect(second.stderr).toMatch(/already exists/);
    expect((await run("copy", source, target, "--overwrite")).code).toBe(0);
  });
});

const bin = path.join(repositoryRoot, "packages/cli/dist/bin.js");
describe.skipIf(!existsSync(bin))("the built zarr binary", () => {
  it("runs with plain node", async () => {
    const dir = scratch();
    await sampleArray(dir, 3);
    const usage = execFileSync(process.execPath, [bin, "--help"], { encoding: "utf8" });
    expect(usage).toMatch(/Usage: zarr <command>/);
    const got = execFileSync(
      process.execPath,
      [bin, "get", dir, "--path", "grid", "--select", "0,:2", "--json"],
      {
        encoding: "utf8",
      },
    );
    expect(JSON.parse(got)).toEqual({
      shape: [2],
      dtype: "float32",
      fill_value: "NaN",
      values: [0, 0.5],
    });
  });
});
