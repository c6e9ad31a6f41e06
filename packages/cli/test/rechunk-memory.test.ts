import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { havePython, runPython, scratchFolders } from "@z/test-utils";
import { describe, expect, it } from "vitest";
import { haveBuiltCli } from "./support/run-built.js";

// A memory bound, not a timing test: the built command rechunks a 1 GiB array on disk in a
// fresh process under the default --max-memory (256 MiB), and its peak resident set size is
// read from the kernel.

const scratch = scratchFolders("z-cli-rechunk-memory-");
const python = havePython("zarr rechunk memory bound (zarr-python 2 writes the 1 GiB source)");
const built = haveBuiltCli("zarr rechunk memory bound, the built command");
const shim = path.resolve(import.meta.dirname, "../bin/zarr.js");
const MiB = 2 ** 20;
const N = 32768;

/** A 32768 x 32768 uint8 array (1 GiB) in 1 MiB chunks: zeros, with every 97th column `row % 251`. */
function writeSource(dir: string): void {
  runPython(`
import numpy as np, numcodecs, zarr
n = ${N}
z = zarr.open_array(${JSON.stringify(dir)}, mode="w", shape=(n, n), chunks=(1024, 1024), dtype="u1",
                    compressor=numcodecs.Blosc("lz4", 1, numcodecs.Blosc.SHUFFLE))
for i in range(0, n, 1024):
    strip = np.zeros((1024, n), dtype="u1")
    strip[:, ::97] = (np.arange(i, i + 1024) % 251)[:, None]
    z[i:i + 1024] = strip
`);
}

/**
 * Runs the built command and its peak RSS in bytes: VmHWM of /proc/<pid>/status, read until
 * the process exits (the high-water mark only grows, so the last reading is the peak).
 */
function runMeasured(args: string[]): Promise<{ code: number; stderr: string; peak: number }> {
  return new Promise((resolve, reject) => {
    const { ZARR_LOG: _ignored, ...env } = process.env;
    const child = spawn(process.execPath, [shim, ...args], { env });
    let stderr = "";
    let peak = 0;
    const status = `/proc/${child.pid}/status`;
    const poll = () => {
      try {
        const kb = /VmHWM:\s+(\d+) kB/.exec(readFileSync(status, "utf8"));
        if (kb) peak = Math.max(peak, Number(kb[1]) * 1024);
      } catch {
        // Gone between the exit and the last poll.
      }
    };
    const timer = setInterval(poll, 20);
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    child.stdout.on("data", () => {});
    // Read once more as it exits, while /proc still has it (a zombie keeps its status).
    child.on("exit", poll);
    child.on("error", reject);
    child.on("close", (code) => {
      clearInterval(timer);
      resolve({ code: code ?? -1, stderr, peak });
    });
  });
}

describe.skipIf(!python || !built)("zarr rechunk of a 1 GiB array (the built command)", () => {
  it("keeps peak RSS under 256 MiB and writes the same values in the new chunks", async () => {
    const dir = scratch();
    const source = path.join(dir, "big.zarr");
    const destination = path.join(dir, "rechunked.zarr");
    writeSource(source);
    const { code, stderr, peak } = await runMeasured([
      "rechunk",
      source,
      destination,
      "--chunks",
      "512,8192",
    ]);
    expect(stderr).toMatch(/^rechunked 1 node \(1 array, 0 groups\), \d+ chunks/);
    expect(code).toBe(0);
    // The poll saw the process (a real Node process takes tens of MiB).
    expect(peak).toBeGreaterThan(32 * MiB);
    expect(peak).toBeLessThan(256 * MiB);
    const meta = JSON.parse(readFileSync(path.join(destination, ".zarray"), "utf8"));
    expect(meta.chunks).toEqual([512, 8192]);
    expect(meta.shape).toEqual([N, N]);
    expect(existsSync(path.join(destination, "0.0"))).toBe(true);
    // zarr-python compares the two in strips of 1024 rows (whole chunks of both).
    const compared = runPython(`
import numpy as np, zarr
a = zarr.open_array(${JSON.stringify(source)}, mode="r")
b = zarr.open_array(${JSON.stringify(destination)}, mode="r")
same = all(np.array_equal(a[i:i + 1024], b[i:i + 1024]) for i in range(0, ${N}, 1024))
print(same, int(b[1234, 97 * 5]), int(b[5, 6]))
`);
    expect(compared.trim()).toBe(`True ${1234 % 251} 0`);
  }, 180_000);
});
