// The three-way comparison on v2 stores: @z, zarrita and zarr-python 2 (Debian's, out of
// process), on the arrays zarr-python 2 writes (it reads and writes v2 only). Full writes and
// reads, single-chunk reads, 2-D slab reads, and the peak RSS of a full read in a fresh process.
import { execFile } from "node:child_process";
import { rename, rm } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { createArray, FsStore, openArray, slice } from "@z/zarr";
import FileSystemStore from "@zarrita/storage/fs";
import * as zarrita from "zarrita";
import { measure, median } from "./measure.mjs";
import { runPython } from "./python.mjs";
import { assertSameArray, extractRegion, prng } from "./volume.mjs";
import { poolFor } from "./workers.mjs";

const MiB = 1024 * 1024;
const RSS_READ = join(dirname(fileURLToPath(import.meta.url)), "rss-read.mjs");

/** The v2 compressor of each codec configuration (the same settings as the v3 suite's). */
export const V2_COMPRESSORS = {
  none: null,
  gzip: { id: "gzip", level: 5 },
  zstd: { id: "zstd", level: 3 },
  blosc: { id: "blosc", cname: "lz4", clevel: 5, shuffle: 1, blocksize: 0 },
};

/**
 * Opening says the format, as zarrita's side does (`zarrita.open.v2`): without it both would
 * first look for a v3 `zarr.json`.
 */
const V2 = { zarrFormat: 2 };

/** Our side: v2 writes, and reads that open the array anew (as the other two do per call). */
function oursV2(options) {
  const workers = poolFor(options.workers);
  return {
    name: "ours",
    async write(dir, volume, codec, settings) {
      const arr = await createArray(new FsStore(dir, { fsync: settings.fsync }), {
        shape: volume.shape,
        chunks: settings.chunks,
        dtype: "float32",
        zarrFormat: 2,
        compressor: V2_COMPRESSORS[codec],
        fillValue: 0,
      });
      await arr.set(null, { data: volume.data, shape: volume.shape });
    },
    async readAll(dir, out) {
      return (await openArray(new FsStore(dir), V2)).get(null, { workers, out });
    },
    async readRegion(dir, start, size) {
      const arr = await openArray(new FsStore(dir), V2);
      return arr.get(
        start.map((s, i) => slice(s, s + size[i])),
        { workers },
      );
    },
  };
}

const zarritaV2 = {
  name: "zarrita",
  async readAll(dir) {
    return zarrita.get(await zarrita.open.v2(new FileSystemStore(dir), { kind: "array" }));
  },
  async readRegion(dir, start, size) {
    const arr = await zarrita.open.v2(new FileSystemStore(dir), { kind: "array" });
    return zarrita.get(
      arr,
      start.map((s, i) => zarrita.slice(s, s + size[i])),
    );
  },
};

/** Libraries in alternating order per repeat: a, b, c, then c, b, a, ... */
function rotations(libraries, repeats) {
  const order = [];
  for (let r = 0; r < repeats; r++)
    for (const lib of r % 2 ? [...libraries].reverse() : libraries) order.push({ lib, rep: r });
  return order;
}

function stat(secondsList, mib) {
  if (secondsList.length === 0) return null;
  const seconds = median(secondsList);
  return { mibPerSec: mib / seconds, seconds, runs: secondsList };
}

/** `count` chunk-aligned boxes and up to 8 2-D slabs (one z plane), chosen deterministically. */
function regionsOf(volume, chunks, count, seed) {
  const next = prng(seed);
  const grid = volume.shape.map((n, i) => Math.ceil(n / chunks[i]));
  const chunk = Array.from({ length: count }, () => {
    const start = grid.map((g, i) => (next() % g) * chunks[i]);
    return { start, size: start.map((s, i) => Math.min(chunks[i], volume.shape[i] - s)) };
  });
  // A slab touches a whole layer of chunks (64 of them in the full volume): fewer slabs.
  const slab = Array.from({ length: Math.min(count, 8) }, () => ({
    start: [next() % volume.shape[0], 0, 0],
    size: [1, volume.shape[1], volume.shape[2]],
  }));
  return { chunk, slab };
}

function runNode(args) {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [RSS_READ, ...args], (error, stdout, stderr) => {
      if (error) reject(new Error(`rss-read ${args.join(" ")} failed: ${stderr || error.message}`));
      else resolve(JSON.parse(stdout));
    });
  });
}

/**
 * Runs the three-way comparison for one codec; `volumeFile` holds the volume's raw bytes for
 * Python. Returns one result per operation with `ours`, `zarrita` and `python` statistics.
 */
export async function benchVersusPython(codec, volume, volumeFile, root, options, settings, say) {
  const ours = oursV2(options);
  const mib = volume.data.byteLength / MiB;
  const py = (args) =>
    runPython({ ...args, volume: volumeFile, shape: volume.shape, chunks: settings.chunks });
  const results = [];
  await rm(root, { recursive: true, force: true });

  // Writes, each into a fresh folder; zarrita writes v3 only and is left out.
  const pyDir = join(root, "python-written");
  const writes = { ours: [], python: [] };
  for (const { lib, rep } of rotations(["ours", "python"], options.repeats)) {
    say(`${codec} v2: write ${rep + 1}/${options.repeats} (${lib})`);
    const dir = join(root, `${lib}-w${rep}`);
    await rm(dir, { recursive: true, force: true });
    if (lib === "ours") {
      writes.ours.push((await measure(() => ours.write(dir, volume, codec, settings))).seconds);
      // zarr-python 2 reads what we wrote (it checks the values).
      await py({ op: "regions", dir, regions: [[[0, 0, 0], settings.chunks]] });
      await rm(dir, { recursive: true, force: true });
    } else {
      writes.python.push((await py({ op: "write", dir, codec })).seconds);
      await rm(pyDir, { recursive: true, force: true });
      await rename(dir, pyDir);
    }
  }
  results.push({
    op: "write",
    codec,
    ours: stat(writes.ours, mib),
    zarrita: null,
    python: stat(writes.python, mib),
  });

  // Full reads of the array zarr-python 2 wrote.
  const reads = { ours: [], zarrita: [], python: [] };
  for (const lib of [ours, zarritaV2]) {
    say(`${codec} v2: read warm-up (${lib.name})`);
    await lib.readRegion(pyDir, [0, 0, 0], settings.chunks);
  }
  for (const { lib, rep } of rotations([ours, zarritaV2, "python"], options.repeats)) {
    const name = lib === "python" ? lib : lib.name;
    say(`${codec} v2: read ${rep + 1}/${options.repeats} (${name})`);
    if (lib === "python") {
      reads.python.push((await py({ op: "read", dir: pyDir })).seconds);
    } else {
      const run = await measure(() => lib.readAll(pyDir));
      assertSameArray(run.value, volume, `${codec} v2 full read by ${name}`);
      reads[name].push(run.seconds);
    }
  }
  results.push({
    op: "read",
    codec,
    ours: stat(reads.ours, mib),
    zarrita: stat(reads.zarrita, mib),
    python: stat(reads.python, mib),
  });

  // Full reads into an output read into before (its pages touched): what a viewer or pipeline
  // that reuses its buffer gets. zarrita has no output argument.
  const into = { ours: [], python: [] };
  const out = new Float32Array(volume.data.length);
  await ours.readAll(pyDir, out);
  for (const { lib, rep } of rotations(["ours", "python"], options.repeats)) {
    say(`${codec} v2: read into a reused output ${rep + 1}/${options.repeats} (${lib})`);
    if (lib === "python") {
      into.python.push((await py({ op: "read-into", dir: pyDir })).seconds);
    } else {
      out.fill(0);
      const run = await measure(() => ours.readAll(pyDir, out));
      if (run.value.data !== out) throw new Error(`${codec} v2 read into: the result is not out`);
      assertSameArray(run.value, volume, `${codec} v2 full read into a reused output by ours`);
      into.ours.push(run.seconds);
    }
  }
  results.push({
    op: "read-into",
    codec,
    ours: stat(into.ours, mib),
    zarrita: null,
    python: stat(into.python, mib),
  });

  // Single chunks and 2-D slabs, each through a newly opened array.
  const boxes = regionsOf(volume, settings.chunks, options.chunkReads, options.seed + 3);
  for (const kind of ["chunk", "slab"]) {
    const regions = boxes[kind];
    const expected = regions.map(({ start, size }) => extractRegion(volume, start, size));
    const regionMiB = expected.reduce((sum, e) => sum + e.data.byteLength, 0) / MiB;
    const times = { ours: [], zarrita: [], python: [] };
    for (const { lib, rep } of rotations([ours, zarritaV2, "python"], options.repeats)) {
      const name = lib === "python" ? lib : lib.name;
      say(`${codec} v2: ${regions.length} ${kind} reads ${rep + 1}/${options.repeats} (${name})`);
      if (lib === "python") {
        const list = regions.map(({ start, size }) => [start, size]);
        times.python.push((await py({ op: "regions", dir: pyDir, regions: list })).seconds);
        continue;
      }
      let seconds = 0;
      for (const [i, { start, size }] of regions.entries()) {
        const t0 = performance.now();
        const got = await lib.readRegion(pyDir, start, size);
        seconds += (performance.now() - t0) / 1000;
        assertSameArray(got, expected[i], `${codec} v2 ${kind} at [${start}] by ${name}`);
      }
      times[name].push(seconds);
    }
    results.push({
      op: kind,
      codec,
      reads: regions.length,
      ours: stat(times.ours, regionMiB),
      zarrita: stat(times.zarrita, regionMiB),
      python: stat(times.python, regionMiB),
    });
  }

  // Peak RSS of one full read, each in a fresh process.
  say(`${codec} v2: peak RSS of a full read (fresh processes)`);
  const rss = {
    ours: await runNode(["ours", pyDir, String(options.workers)]),
    // The same once the decode pool has started (its workers' one-time cost left out).
    oursWarm: await runNode(["ours", pyDir, String(options.workers), "warm"]),
    zarrita: await runNode(["zarrita", pyDir]),
    python: await py({ op: "rss-read", dir: pyDir }),
  };
  results.push({ op: "rss", codec, ...rss });
  await rm(root, { recursive: true, force: true });
  return results;
}
