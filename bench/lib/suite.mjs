// The benchmark suite: for each codec configuration, full writes, full reads and single-chunk
// reads by both libraries, on the same generated volume, alternating libraries between runs.
import { readdir, readFile, rename, rm, stat } from "node:fs/promises";
import { loadavg } from "node:os";
import { join } from "node:path";
import { bloscHeaderFlags, CODEC_CONFIGS } from "./codecs.mjs";
import { LIBRARIES, ours, zarritaLib } from "./libraries.mjs";
import { measure, median } from "./measure.mjs";
import { assertSameArray, extractRegion, makeVolume, prng } from "./volume.mjs";

const MiB = 1024 * 1024;

/**
 * Runs the benchmarks chosen by `options` (see parseOptions) with stores under `dataDir`, and
 * returns `{config, results, notes}`: one result per (operation, codec) with per-library
 * statistics (`null` where a library cannot do the operation). Throws if any library returns
 * data that differs from the source volume.
 * @param {object} options from parseOptions
 * @param {{dataDir: string, log?: (line: string) => void, volume?: object}} env
 */
export async function runSuite(options, { dataDir, log = () => {}, volume }) {
  const started = performance.now();
  const loadAtStart = loadavg()[0];
  const say = (line) =>
    log(`[${((performance.now() - started) / 1000).toFixed(1).padStart(6)}s] ${line}`);
  say(`generating a float32 volume of shape [${options.shape}]`);
  volume ??= makeVolume(options.shape, options.seed);
  const volumeMiB = volume.data.byteLength / MiB;
  const settings = { chunks: options.chunks, fsync: options.fsync };
  const results = [];
  const notes = [];
  const lines = { say, notes };

  for (const codec of options.codecs) {
    const config = CODEC_CONFIGS[codec];
    const root = join(dataDir, codec);
    await rm(root, { recursive: true, force: true });
    let oursDir;
    if (options.ops.includes("write")) {
      const { result, keptDir } = await benchWrite(
        codec,
        config,
        volume,
        root,
        options,
        settings,
        lines,
      );
      results.push(result);
      oursDir = keptDir;
    }
    if (!oursDir && (options.ops.includes("read") || options.ops.includes("chunk"))) {
      oursDir = join(root, "ours-source");
      say(`${codec}: writing the source array (untimed)`);
      await ours.write(oursDir, volume, config.codecs, settings);
    }
    if (options.ops.includes("read"))
      results.push(await benchRead(codec, volume, oursDir, options, settings, lines));
    if (options.ops.includes("chunk"))
      results.push(await benchChunks(codec, volume, oursDir, options, settings, lines));
    await rm(root, { recursive: true, force: true });
  }
  say("done");
  return {
    config: {
      size: options.size,
      shape: volume.shape,
      chunks: options.chunks,
      dtype: "float32",
      volumeMiB,
      codecs: options.codecs,
      ops: options.ops,
      repeats: options.repeats,
      chunkReads: options.chunkReads,
      fsync: options.fsync,
      node: process.version,
      date: new Date().toISOString(),
      seconds: (performance.now() - started) / 1000,
      // Other work on the machine makes runs noisy; the 1-minute load average says how busy it was.
      loadAverage: { start: loadAtStart, end: loadavg()[0] },
    },
    results,
    notes,
  };
}

/** Runs `repeats` measured runs per library after a warm-up, alternating which goes first. */
function runOrder(libraries, repeats) {
  const order = [];
  for (let r = 0; r < repeats; r++) {
    const pair = r % 2 === 0 ? libraries : [...libraries].reverse();
    for (const lib of pair) order.push({ lib, rep: r });
  }
  return order;
}

function summarize(runs, mib) {
  const seconds = median(runs.map((r) => r.seconds));
  return {
    mibPerSec: mib / seconds,
    seconds,
    runs: runs.map((r) => ({
      seconds: r.seconds,
      mibPerSec: mib / r.seconds,
      peakMiB: r.peakMiB,
      peakRssMiB: r.peakRssMiB,
      peakArrayBuffersMiB: r.peakArrayBuffersMiB,
    })),
    peakMiB: median(runs.map((r) => r.peakMiB)),
    peakRssMiB: median(runs.map((r) => r.peakRssMiB)),
    peakArrayBuffersMiB: median(runs.map((r) => r.peakArrayBuffersMiB)),
  };
}

/**
 * The warm-up volume: the first row of chunks along the last axis (8 MiB in the full run), a
 * copy. Enough to compile the hot paths and load the codecs without a full-size run.
 */
function warmupVolume(volume, chunks) {
  const size = [
    Math.min(chunks[0], volume.shape[0]),
    Math.min(chunks[1], volume.shape[1]),
    volume.shape[2],
  ];
  return extractRegion(volume, [0, 0, 0], size);
}

async function storedBytes(dir) {
  let total = 0;
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile() && entry.name !== "zarr.json")
      total += (await stat(join(entry.parentPath ?? entry.path, entry.name))).size;
  }
  return total;
}

function chunkGrid(volume, chunks) {
  return volume.shape.map((n, i) => Math.ceil(n / chunks[i]));
}

/** `count` chunk-aligned regions chosen at random (deterministically) over the grid. */
function randomRegions(volume, chunks, count, seed) {
  const grid = chunkGrid(volume, chunks);
  const next = prng(seed);
  return Array.from({ length: count }, () => {
    const start = grid.map((g, i) => (next() % g) * chunks[i]);
    const size = start.map((s, i) => Math.min(chunks[i], volume.shape[i] - s));
    return { start, size };
  });
}

/**
 * Reads a few chunks of the array in `dir` with the other library and compares them with the
 * volume: what one library writes must read back right through the other.
 */
async function verifySampledChunks(reader, dir, volume, options, settings, label) {
  const handle = await reader.open(dir, settings);
  for (const { start, size } of randomRegions(volume, options.chunks, 4, options.seed + 7)) {
    const got = await reader.readRegion(handle, start, size);
    assertSameArray(
      got,
      extractRegion(volume, start, size),
      `${label}, region at [${start}] read by ${reader.name}`,
    );
  }
}

async function benchWrite(codec, config, volume, root, options, settings, { say, notes }) {
  const writers = LIBRARIES.filter((lib) => lib !== zarritaLib || config.zarritaWrites);
  const warm = warmupVolume(volume, options.chunks);
  for (const lib of writers) {
    say(`${codec}: write warm-up (${lib.name})`);
    const dir = join(root, `${lib.name}-warmup`);
    await lib.write(dir, warm, config.codecs, settings);
    await rm(dir, { recursive: true, force: true });
  }
  const runs = { ours: [], zarrita: [] };
  const stored = {};
  const keptDir = join(root, "ours-written");
  // Without a zarrita counterpart there is no ratio to make robust: one run is enough.
  const repeats = writers.length > 1 ? options.repeats : 1;
  const order = runOrder(writers, repeats);
  for (const [i, { lib, rep }] of order.entries()) {
    const dir = join(root, `${lib.name}-w${rep}`);
    await rm(dir, { recursive: true, force: true });
    say(`${codec}: write ${rep + 1}/${repeats} (${lib.name})`);
    const run = await measure(() => lib.write(dir, volume, config.codecs, settings));
    runs[lib.name].push(run);
    stored[lib.name] ??= await storedBytes(dir);
    const other = lib === ours ? zarritaLib : ours;
    await verifySampledChunks(
      other,
      dir,
      volume,
      options,
      settings,
      `${codec} array written by ${lib.name}`,
    );
    if (codec === "blosc" && rep === 0) {
      const flags = bloscHeaderFlags(await readFile(join(dir, "c", "0", "0", "0")));
      if (flags?.shuffle !== "shuffle") {
        notes.push(
          `blosc: ${lib.name} wrote chunks with ${flags?.shuffle}${flags?.memcpyed ? " (stored uncompressed)" : ""} although the metadata says "shuffle"`,
        );
      }
    }
    const lastOurs = lib === ours && !order.slice(i + 1).some((o) => o.lib === ours);
    if (lastOurs) {
      await rm(keptDir, { recursive: true, force: true });
      await rename(dir, keptDir);
    } else {
      await rm(dir, { recursive: true, force: true });
    }
  }
  const mib = volume.data.byteLength / MiB;
  const stat = (name) =>
    runs[name].length ? { ...summarize(runs[name], mib), storedMiB: stored[name] / MiB } : null;
  return {
    result: { op: "write", codec, unit: "MiB/s", ours: stat("ours"), zarrita: stat("zarrita") },
    keptDir,
  };
}

async function benchRead(codec, volume, dir, options, settings, { say }) {
  const handles = {};
  const warm = warmupVolume(volume, options.chunks);
  for (const lib of LIBRARIES) {
    say(`${codec}: read warm-up (${lib.name})`);
    handles[lib.name] = await lib.open(dir, settings);
    const got = await lib.readRegion(handles[lib.name], [0, 0, 0], warm.shape);
    assertSameArray(got, warm, `${codec} warm-up read by ${lib.name}`);
  }
  const runs = { ours: [], zarrita: [] };
  for (const { lib, rep } of runOrder(LIBRARIES, options.repeats)) {
    say(`${codec}: read ${rep + 1}/${options.repeats} (${lib.name})`);
    const run = await measure(() => lib.readAll(handles[lib.name]));
    assertSameArray(run.value, volume, `${codec} full read by ${lib.name}`);
    run.value = undefined;
    runs[lib.name].push(run);
  }
  const mib = volume.data.byteLength / MiB;
  return {
    op: "read",
    codec,
    unit: "MiB/s",
    ours: summarize(runs.ours, mib),
    zarrita: summarize(runs.zarrita, mib),
  };
}

async function benchChunks(codec, volume, dir, options, settings, { say }) {
  const regions = randomRegions(volume, options.chunks, options.chunkReads, options.seed + 1);
  const expected = regions.map(({ start, size }) => extractRegion(volume, start, size));
  const handles = {};
  for (const lib of LIBRARIES) {
    say(`${codec}: chunk-read warm-up (${lib.name})`);
    handles[lib.name] = await lib.open(dir, settings);
    for (let i = 0; i < Math.min(4, regions.length); i++) {
      const got = await lib.readRegion(handles[lib.name], regions[i].start, regions[i].size);
      assertSameArray(got, expected[i], `${codec} chunk warm-up by ${lib.name}`);
    }
  }
  const runs = { ours: [], zarrita: [] };
  for (const { lib, rep } of runOrder(LIBRARIES, options.repeats)) {
    say(`${codec}: ${regions.length} chunk reads ${rep + 1}/${options.repeats} (${lib.name})`);
    // Only the reads are timed; each result is checked between them.
    let readSeconds = 0;
    const run = await measure(async () => {
      for (const [i, { start, size }] of regions.entries()) {
        const t0 = performance.now();
        const got = await lib.readRegion(handles[lib.name], start, size);
        readSeconds += (performance.now() - t0) / 1000;
        assertSameArray(got, expected[i], `${codec} chunk read at [${start}] by ${lib.name}`);
      }
    });
    runs[lib.name].push({ ...run, seconds: readSeconds });
  }
  const mib = expected.reduce((sum, e) => sum + e.data.byteLength, 0) / MiB;
  const stat = (name) => ({
    ...summarize(runs[name], mib),
    chunksPerSec: regions.length / median(runs[name].map((r) => r.seconds)),
  });
  return {
    op: "chunk",
    codec,
    unit: "MiB/s",
    chunks: regions.length,
    ours: stat("ours"),
    zarrita: stat("zarrita"),
  };
}
