import { existsSync } from "node:fs";
import path from "node:path";
import { scratchFolders, startTestHttpServer } from "@z/test-utils";
import { createArray, createGroup, FsStore, openArray } from "@z/zarr";
import { describe, expect, it } from "vitest";
import { runBin } from "./support/run-bin.js";

// `zarr rechunk` in a fresh process (the sources through the test hooks): hierarchies of
// arrays of different ranks, shards, codecs, HTTP sources, and its refusals.

const scratch = scratchFolders("z-cli-rechunk-");

/** A v3 hierarchy: a 1-D float64 array, a 2-D int16 one and a 3-D uint8 one in a subgroup. */
async function mixedRanks(dir: string) {
  const store = new FsStore(dir);
  await createGroup(store, { attributes: { title: "mixed" } });
  const line = await createArray(store, {
    path: "line",
    shape: [5000],
    chunks: [700],
    dtype: "float64",
  });
  await line.set(
    null,
    Float64Array.from({ length: 5000 }, (_, i) => i / 7),
  );
  const grid = await createArray(store, {
    path: "grid",
    shape: [300, 200],
    chunks: [300, 7],
    dtype: "int16",
    fillValue: -1,
  });
  await grid.set(null, {
    data: Int16Array.from({ length: 60000 }, (_, i) => (i % 3001) - 1500),
    shape: [300, 200],
  });
  const cube = await createArray(store, {
    path: "sub/cube",
    shape: [4, 50, 60],
    chunks: [1, 50, 60],
    dtype: "uint8",
  });
  await cube.set(null, {
    data: Uint8Array.from({ length: 12000 }, (_, i) => i % 251),
    shape: [4, 50, 60],
  });
  return dir;
}

async function values(dir: string, path: string): Promise<number[]> {
  const array = await openArray(new FsStore(dir), { path });
  return Array.from((await array.get(null)).data as ArrayLike<number>, Number);
}

describe("zarr rechunk (a fresh process)", () => {
  it("rechunks a hierarchy of arrays of different ranks with --chunk-bytes, where one --chunks shape fails", async () => {
    const source = await mixedRanks(path.join(scratch(), "mixed.zarr"));
    const dest = path.join(scratch(), "out.zarr");
    // One shape cannot fit arrays of three ranks: zarr copy refuses before writing anything.
    const copy = await runBin(["copy", source, dest, "--chunks", "10,10"]);
    expect(copy.code).toBe(2);
    expect(copy.stderr).toMatch(
      /CopyOptionError: Cannot copy \/line with --chunks 10,10: it has 2 extents; the array has 1 dimension/,
    );
    expect(existsSync(dest)).toBe(false);

    const result = await runBin(["rechunk", source, dest, "--chunk-bytes", "4KiB", "--json"]);
    expect(result.stderr).toMatch(
      /^rechunked 5 nodes \(3 arrays, 2 groups\), \d+ chunks, \d+ bytes/,
    );
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ arrays: 3, groups: 2 });
    const store = new FsStore(dest);
    // 4 KiB: 512 float64s; 2048 int16s as a 45x45 square; 4096 uint8s as a cube of side 16,
    // but the cube's first axis (4) is shorter, so it is whole and the others share 1024: 32x32.
    expect((await openArray(store, { path: "line" })).chunks).toEqual([512]);
    expect((await openArray(store, { path: "grid" })).chunks).toEqual([45, 45]);
    expect((await openArray(store, { path: "sub/cube" })).chunks).toEqual([4, 32, 32]);
    for (const name of ["line", "grid", "sub/cube"])
      expect(await values(dest, name)).toEqual(await values(source, name));
  }, 60_000);

  it("rechunks into shards with another compressor, read from an HTTP server, within a small --max-memory", async () => {
    const source = await mixedRanks(path.join(scratch(), "mixed.zarr"));
    const dest = path.join(scratch(), "sharded.zarr");
    const server = await startTestHttpServer({ root: source });
    try {
      const result = await runBin([
        "rechunk",
        server.url,
        dest,
        "--path",
        "grid",
        "--chunks",
        "30,20",
        "--shards",
        "150,100",
        "--compressor",
        "zstd",
        "--max-memory",
        "100MiB",
      ]);
      expect(result.stderr).toMatch(/^rechunked 1 node \(1 array, 0 groups\), 4 chunks/);
      expect(result.code).toBe(0);
    } finally {
      await server.stop();
    }
    const copy = await openArray(new FsStore(dest), { path: "grid" });
    expect(copy.chunks).toEqual([30, 20]);
    expect(copy.shards).toEqual([150, 100]);
    expect(JSON.stringify(copy.metadata.codecs)).toMatch(/zstd/);
    expect(await values(dest, "grid")).toEqual(await values(source, "grid"));
  }, 60_000);

  it("refuses what cannot work before writing: a budget too small, --chunks with --chunk-bytes, bad sizes", async () => {
    const source = await mixedRanks(path.join(scratch(), "mixed.zarr"));
    const dest = path.join(scratch(), "never.zarr");
    const small = await runBin([
      "rechunk",
      source,
      dest,
      "--path",
      "grid",
      "--chunks",
      "300,200",
      "--max-memory",
      "97MiB",
    ]);
    expect(small.code).toBe(2);
    expect(small.stderr).toMatch(
      /CopyOptionError: Cannot copy \/grid with --max-memory 97 MiB: one destination chunk \[300,200\]/,
    );
    expect(existsSync(dest)).toBe(false);
    const both = await runBin(["rechunk", source, dest, "--chunks", "3", "--chunk-bytes", "1MiB"]);
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(
      /--chunks and --chunk-bytes cannot be given together\n\nUsage: zarr rechunk/,
    );
    const bad = await runBin(["rechunk", source, dest, "--chunk-bytes", "lots"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(
      /--chunk-bytes must be a size in bytes such as 4194304, 4MiB or 256MB, got lots/,
    );
    const help = await runBin(["rechunk", "--help"]);
    expect(help.stdout).toMatch(/^Usage: zarr rechunk <src> <dst>/);
    expect(help.stdout).toMatch(/--chunk-bytes SIZE/);
  }, 60_000);
});
