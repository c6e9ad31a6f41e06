// The large case (op `large`), after the zarrs benchmark suite's "read all": a 1024³ uint16 cube
// (2 GiB) read whole from the file system, zstd in 256³ chunks and sharded (256³ shards of 64³
// zstd chunks), by us and zarrita in this process, alternating, and by zarr-python 2 out of
// process on the v2 twin of the unsharded array (it reads neither v3 nor sharding). Every run
// opens the array anew, as each run of the zarrs suite is a fresh process; every result is
// checked against the generating formula.
import { join } from "node:path";
import { FsStore, openArray } from "@z/zarr";
import FileSystemStore from "@zarrita/storage/fs";
import * as zarrita from "zarrita";
import { ensureLargeArrays } from "./large-data.mjs";
import { checkLargeArray, largeLayout } from "./large-values.mjs";
import { measure, median } from "./measure.mjs";
import { runPython } from "./python.mjs";
import { poolFor } from "./workers.mjs";

const MiB = 1024 * 1024;

/** The variants read, in order, with the chunking each has. */
export const LARGE_VARIANTS = ["zstd", "sharded"];

/** Libraries in alternating order per repeat: a, b, c, then c, b, a, ... */
function rotations(names, repeats) {
  const order = [];
  for (let r = 0; r < repeats; r++)
    for (const name of r % 2 ? [...names].reverse() : names) order.push({ name, rep: r });
  return order;
}

/** Median seconds, GB/s (10⁹ bytes, as the zarrs suite reports sizes) and peaks of some runs. */
export function largeStat(runs, bytes) {
  if (runs.length === 0) return null;
  const seconds = median(runs.map((r) => r.seconds));
  const peaks = runs.map((r) => r.peakMiB).filter((p) => p !== undefined);
  return {
    seconds,
    gbPerSec: bytes / 1e9 / seconds,
    peakMiB: peaks.length ? Math.max(...peaks) : undefined,
    runs: runs.map((r) => r.seconds),
  };
}

/**
 * Runs the large case: generates the arrays under `dataDir/large` when missing, then times full
 * reads. `python` is false to leave zarr-python 2 out (not installed). Returns
 * `{edge, bytes, storedBytes, results: [{variant, chunks, shards?, ours, zarrita, python}]}`.
 */
export async function benchLarge(options, { dataDir, say, python = true }) {
  const edge = options.edge;
  const { shape, chunks, inner } = largeLayout(edge);
  const arrays = await ensureLargeArrays(join(dataDir, "large"), edge, say);
  const bytes = edge ** 3 * 2;
  const workers = poolFor(options.workers);
  const readers = {
    ours: async (dir) => (await openArray(new FsStore(dir))).get(null, { workers }),
    zarrita: async (dir) =>
      zarrita.get(await zarrita.open.v3(new FileSystemStore(dir), { kind: "array" })),
  };
  const warmUps = {
    ours: async (dir) => (await openArray(new FsStore(dir))).get([0, 0, null], { workers }),
    zarrita: async (dir) =>
      zarrita.get(await zarrita.open.v3(new FileSystemStore(dir), { kind: "array" }), [0, 0, null]),
  };
  const results = [];
  for (const variant of LARGE_VARIANTS) {
    const dir = arrays[variant];
    const withPython = python && variant === "zstd";
    const names = withPython ? ["ours", "zarrita", "python"] : ["ours", "zarrita"];
    const runs = { ours: [], zarrita: [], python: [] };
    for (const name of ["ours", "zarrita"]) {
      // A warm-up read of one row per library: codecs loaded, pool started, files cached.
      say(`large ${variant}: warm-up (${name})`);
      await warmUps[name](dir);
    }
    for (const { name, rep } of rotations(names, options.repeats)) {
      say(`large ${variant}: read ${rep + 1}/${options.repeats} (${name})`);
      if (name === "python") {
        const run = await runPython({ op: "read-large", dir: arrays.zstdV2, edge });
        runs.python.push({ seconds: run.seconds, peakMiB: run.peakRssMiB });
        continue;
      }
      const run = await measure(() => readers[name](dir));
      checkLargeArray(run.value, edge, `large ${variant} full read by ${name}`);
      runs[name].push({ seconds: run.seconds, peakMiB: run.peakMiB });
    }
    results.push({
      op: "large",
      variant,
      chunks: variant === "sharded" ? inner : chunks,
      shards: variant === "sharded" ? chunks : undefined,
      storedBytes: arrays.storedBytes[variant],
      ours: largeStat(runs.ours, bytes),
      zarrita: largeStat(runs.zarrita, bytes),
      python: largeStat(runs.python, bytes),
    });
  }
  return { edge, shape, bytes, outputMiB: bytes / MiB, results };
}
