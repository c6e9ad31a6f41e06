// What a new user runs first, each in a fresh process of the real `zarr` binary (dist/), with
// codecs and data types loading on first use and the decode pool as it comes: the
// reproductions of reads that once failed only outside the test suite's preloaded world.
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { fixturePath, haveFixtures, havePython, runPython, tempDir } from "@z/test-utils";
import { afterAll, describe, expect, it } from "vitest";

const here = path.dirname(fileURLToPath(import.meta.url));
const bin = path.join(here, "../../../cli/dist/bin.js");
const run = promisify(execFile);

/** Runs `zarr <args>` in a fresh Node process, as a user's shell does. */
async function zarr(...args: string[]): Promise<{ stdout: string; stderr: string }> {
  if (!existsSync(bin)) throw new Error(`${bin} is missing: build the packages first (pnpm build)`);
  return run(process.execPath, [bin, ...args], { maxBuffer: 1 << 28 });
}

const { dir, remove } = tempDir("z-first-use-");
afterAll(remove);

describe("first use, through the zarr binary in fresh processes", () => {
  it.skipIf(!haveFixtures("first use: v2 F order"))(
    "zarr info and zarr get read a v2 array in F order (its implied transpose loads)",
    async () => {
      // A 4-d int32 array of zarr-python 2's fixture, F order, blosc zstd.
      const location = fixturePath("zarr-python-v2/fixture/23/3");
      const info = await zarr("info", location);
      expect(info.stdout).toMatch(/transpose\(order=\[3,2,1,0\]\)/);
      const { stdout } = await zarr("get", location, "--json", "--select", "0,0,0,:4");
      const result = JSON.parse(stdout);
      expect(result.shape).toEqual([4]);
      // C-order values of the fixture (element [0,0,0,k]); zarr-python reads the same.
      expect(result.values).toEqual([0, 2000, 4000, 6000]);
    },
  );

  const python = havePython("first use: an int64 array with fill -2^63 written by zarr-python 2");
  it.skipIf(!python)(
    "zarr get reads an int64 zstd array with fill -2^63 through the decode pool",
    async () => {
      const location = path.join(dir, "nat.zarr");
      // Chunks of 128 KiB decoded, over the pool's 64 KiB inline threshold; the second chunk
      // is never written, so it reads as the fill value.
      runPython(
        [
          "import sys, zarr, numpy as np, numcodecs",
          "z = zarr.open(sys.stdin.read(), mode='w', shape=(32768,), chunks=(16384,), dtype='<i8',",
          "              fill_value=np.iinfo('i8').min, compressor=numcodecs.Zstd(level=1))",
          "z[:16384] = np.arange(16384, dtype='i8') * 1000003",
        ].join("\n"),
        location,
      );
      const { stdout } = await zarr("get", location, "--json", "--select", "16382:16386");
      expect(JSON.parse(stdout)).toEqual({
        shape: [4],
        dtype: "<i8",
        fill_value: "-9223372036854775808",
        values: [16382 * 1000003, 16383 * 1000003, "-9223372036854775808", "-9223372036854775808"],
      });
    },
  );

  it.skipIf(!haveFixtures("first use: zarr copy"))(
    "zarr copy converts to a compressor nothing has loaded yet",
    async () => {
      const source = fixturePath("zarr-python-v2/fixture/0/0");
      const target = path.join(dir, "zstd.zarr");
      await zarr("copy", source, target, "--format", "3", "--compressor", "zstd");
      expect((await zarr("info", target)).stdout).toMatch(/zstd/);
      const a = JSON.parse((await zarr("get", source, "--json")).stdout);
      const b = JSON.parse((await zarr("get", target, "--json")).stdout);
      expect(b.values).toEqual(a.values);
    },
  );
});
