import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { bufferedOutput, CopyOptionError, copyCommand } from "@z/cli";
import { fixturePath, haveFixtures, runCli, scratchFolders } from "@z/test-utils";
import { createArray, createGroup, FsStore, isZarrError, openArray, openGroup } from "@z/zarr";
import { describe, expect, it } from "vitest";

const scratch = scratchFolders("z-copy-opt-");

/** A v3 hierarchy with a 2-d and a 1-d array (the 1-d one met second). */
async function mixedRanks(dir: string) {
  const store = new FsStore(dir);
  await createGroup(store, { attributes: { title: "mixed" } });
  const a = await createArray(store, { path: "a", shape: [4, 6], chunks: [2, 3], dtype: "int16" });
  await a.set(null, 3);
  const b = await createArray(store, { path: "b", shape: [5], chunks: [2], dtype: "float32" });
  await b.set(null, 1.5);
}

/** Every file under a folder, relative. */
function files(dir: string, prefix = ""): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(path.join(dir, e.name), `${prefix}${e.name}/`) : [`${prefix}${e.name}`],
  );
}

describe("zarr copy checks its options against the source before writing", () => {
  it("a --chunks of the wrong rank for any array writes nothing and names the node", async () => {
    const source = scratch();
    await mixedRanks(source);
    const destination = path.join(scratch(), "out");
    const result = await runCli("copy", source, destination, "--chunks", "2,2");
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      "zarr: CopyOptionError: Cannot copy /b with --chunks 2,2: it has 2 extents; the array has 1 dimension\n",
    );
    expect(existsSync(destination)).toBe(false);
  });

  it("the error is typed, with the option and the node as fields", async () => {
    const source = scratch();
    await mixedRanks(source);
    const destination = path.join(scratch(), "out");
    const error = await copyCommand(bufferedOutput(), source, destination, { chunks: [1] }).catch(
      (e) => e,
    );
    expect(error).toBeInstanceOf(CopyOptionError);
    expect(isZarrError(error)).toBe(true);
    expect(error).toMatchObject({ option: "--chunks 1", path: "a" });
    expect(existsSync(destination)).toBe(false);
  });

  it("an unknown compressor or format is refused before anything is opened", async () => {
    const source = scratch();
    await mixedRanks(source);
    const destination = path.join(scratch(), "out");
    const bad = await runCli("copy", source, destination, "--compressor", "lz5");
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--compressor must be one of none, gzip, zstd, blosc, got lz5/);
    const api = await copyCommand(bufferedOutput(), source, destination, {
      compressor: "lz5" as never,
    }).catch((e) => e);
    expect(api.message).toMatch(/--compressor must be one of/);
    const format = await runCli("copy", source, destination, "--format", "4");
    expect(format.code).toBe(2);
    expect(existsSync(destination)).toBe(false);
  });

  it.skipIf(!haveFixtures("zarr copy options"))(
    "a hierarchy with one array v2 cannot express is refused whole, nothing written",
    async () => {
      const destination = path.join(scratch(), "out");
      const result = await runCli(
        "copy",
        fixturePath("zarrita", "v3", "data.zarr"),
        destination,
        "--format",
        "2",
      );
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(
        /CopyOptionError: Cannot copy \/3d.contiguous.delta.i4.mixed with --format 2: Zarr v2 cannot express transpose order/,
      );
      expect(existsSync(destination)).toBe(false);
    },
  );
});

describe("zarr copy destinations", () => {
  it("a URL scheme without a registered store is an error, never a local folder", async () => {
    const source = scratch();
    await mixedRanks(source);
    const cwd = process.cwd();
    const here = scratch();
    process.chdir(here);
    try {
      const result = await runCli("copy", source, "hdfs://cluster/x.zarr");
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/StoreError: No store is registered for "hdfs:" locations/);
      expect(readdirSync(here)).toEqual([]);
    } finally {
      process.chdir(cwd);
    }
  });

  it("a file: URL is a local folder", async () => {
    const source = scratch();
    await mixedRanks(source);
    const destination = path.join(scratch(), "out");
    const result = await runCli("copy", source, pathToFileURL(destination).href);
    expect(result.code).toBe(0);
    const copy = await openArray(new FsStore(destination), { path: "a" });
    expect(Array.from((await copy.get()).data as Int16Array)).toEqual(new Array(24).fill(3));
  });
});

describe("zarr copy summary", () => {
  it("ends with a summary line; --json prints the same counts as one JSON object", async () => {
    const source = scratch();
    await mixedRanks(source);
    const destination = scratch();
    const result = await runCli("copy", source, destination, "--json", "--compressor", "none");
    expect(result.code).toBe(0);
    const summary = JSON.parse(result.stdout);
    const chunkFiles = files(destination).filter((f) => !f.endsWith("zarr.json"));
    const bytes = chunkFiles.reduce((n, f) => n + statSync(path.join(destination, f)).size, 0);
    // a: 2 x 2 chunks of 6 int16; b: 3 chunks of 2 float32.
    expect(summary).toEqual({ arrays: 2, groups: 1, consolidated: 0, chunks: 7, bytes });
    expect(bytes).toBe(4 * 12 + 3 * 8);
    expect(result.stderr).toBe(
      `copied 3 nodes (2 arrays, 1 group), 7 chunks, ${bytes} bytes from ${source} to ${destination}\n`,
    );
  });
});

describe.skipIf(!haveFixtures("zarr copy consolidated"))(
  "zarr copy keeps consolidated metadata",
  () => {
    it("v2 consolidated root to v3: the root's zarr.json lists every node", async () => {
      const destination = scratch();
      const result = await runCli(
        "copy",
        fixturePath("zarrita", "v2", "data.zarr"),
        destination,
        "--format",
        "3",
        "--json",
      );
      expect(result.code, result.stderr).toBe(0);
      expect(JSON.parse(result.stdout).consolidated).toBe(1);
      const root = JSON.parse(readFileSync(path.join(destination, "zarr.json"), "utf8"));
      expect(root.consolidated_metadata.kind).toBe("inline");
      const listed = Object.keys(root.consolidated_metadata.metadata);
      const onDisk = files(destination)
        .filter((f) => f.endsWith("/zarr.json"))
        .map((f) => f.slice(0, -"/zarr.json".length));
      expect(listed.sort()).toEqual(onDisk.sort());
      const group = await openGroup(new FsStore(destination));
      expect(group.consolidated).toBeDefined();
    });

    it("a v3 consolidated subgroup to v2: .zmetadata beside its .zgroup", async () => {
      const destination = scratch();
      const result = await runCli(
        "copy",
        fixturePath("zarrita", "v3", "data.zarr"),
        destination,
        "--path",
        "consolidated",
        "--format",
        "2",
      );
      expect(result.code, result.stderr).toBe(0);
      const zmetadata = JSON.parse(
        readFileSync(path.join(destination, "consolidated", ".zmetadata"), "utf8"),
      );
      expect(Object.keys(zmetadata.metadata)).toEqual(
        expect.arrayContaining([".zgroup", "1d.chunked.i2/.zarray", "nested/.zgroup"]),
      );
      expect(zmetadata.metadata[".zattrs"]).toEqual({ answer: 42 });
      // The root above it had none, and gets none.
      expect(existsSync(path.join(destination, ".zmetadata"))).toBe(false);
    });
  },
);
