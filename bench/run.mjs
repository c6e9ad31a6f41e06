// `pnpm bench`: @z against zarrita, side by side in one process on the same data, then against
// zarrita and zarr-python 2 (Debian's /usr/bin/python3, when present) on v2 arrays; with
// `--ops large` the zarrs suite's 2 GiB uint16 cube, with `--ops browser` the same read in Chromium.
// Options: --size full|small|tiny, --codecs none,gzip,zstd,blosc,
// --ops write,read,chunk,python,sharded,strings,cache,large,browser, --repeats N, --chunk-reads N,
// --fsync on|off, --seed N, --workers auto|N, --edge N, --node 20,24, --results FILE (or
// BENCH_SIZE, BENCH_CODECS, ...). With --node, each version runs the rest in its own process and
// the ratios are printed side by side at the end.
// Tables go to stdout, progress to stderr, the results as JSON to bench/data/results.json.
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { benchBrowser, CHROMIUM_PATH, chromiumAvailable } from "./lib/browser.mjs";
import { benchChunkCache, formatChunkCacheReport } from "./lib/chunk-cache.mjs";
import { benchLarge } from "./lib/large.mjs";
import { childArguments, findNode, runChild } from "./lib/node-versions.mjs";
import { parseOptions } from "./lib/options.mjs";
import { probePython } from "./lib/python.mjs";
import { formatReport } from "./lib/report.mjs";
import { formatBrowserReport, formatLargeReport } from "./lib/report-large.mjs";
import { formatPythonReport, formatShardedReport } from "./lib/report-python.mjs";
import { benchSharded } from "./lib/sharded.mjs";
import { formatSideBySide } from "./lib/side-by-side.mjs";
import { benchStrings, formatStringsReport } from "./lib/strings.mjs";
import { runSuite } from "./lib/suite.mjs";
import { benchVersusPython } from "./lib/versus-python.mjs";
import { makeVolume } from "./lib/volume.mjs";
import { closePool, poolFor } from "./lib/workers.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const dataDir = join(here, "data");
const storesDir = join(dataDir, "stores");
const script = fileURLToPath(import.meta.url);

let options;
try {
  options = parseOptions(process.argv.slice(2), process.env);
} catch (error) {
  console.error(error.message);
  process.exit(2);
}
if (typeof globalThis.gc !== "function") {
  console.error(
    "note: run with `node --expose-gc` (as `pnpm bench` does) for a collection before each run",
  );
}

const resultsFile = options.results ?? join(dataDir, "results.json");
const log = (line) => console.error(line);
await mkdir(dataDir, { recursive: true });
if (options.nodes.length > 0) process.exit(await acrossNodeVersions());

/** The ops of the v3 suite, which share the generated float32 volume with python and sharded. */
const VOLUME_OPS = ["write", "read", "chunk", "python", "sharded"];

try {
  poolFor(options.workers);
  const volume = options.ops.some((op) => VOLUME_OPS.includes(op))
    ? makeVolume(options.shape, options.seed)
    : undefined;
  let report;
  if (["write", "read", "chunk"].some((op) => options.ops.includes(op))) {
    report = await runSuite(options, { dataDir: storesDir, log, volume });
    console.log(formatReport(report));
  }
  let versusPython;
  if (options.ops.includes("python")) {
    const probe = await probePython();
    const results = [];
    if (probe.versions) {
      const volumeFile = join(storesDir, "volume.f32");
      await mkdir(storesDir, { recursive: true });
      await writeFile(volumeFile, new Uint8Array(volume.data.buffer));
      const settings = { chunks: options.chunks, fsync: options.fsync };
      for (const codec of options.codecs) {
        const root = join(storesDir, `v2-${codec}`);
        results.push(
          ...(await benchVersusPython(codec, volume, volumeFile, root, options, settings, log)),
        );
      }
      await rm(volumeFile, { force: true });
    }
    versusPython = { versions: probe.versions, missing: probe.missing, results };
    console.log(`\n${formatPythonReport({ ...versusPython, workers: options.workers })}`);
  }
  let sharded;
  if (options.ops.includes("sharded")) {
    const settings = { chunks: options.chunks, fsync: options.fsync };
    sharded = await benchSharded(volume, join(storesDir, "sharded"), options, settings, log);
    console.log(`\n${formatShardedReport(sharded)}`);
  }
  let strings;
  if (options.ops.includes("strings")) {
    // 1M short strings at full size, as the strings issue asks; fewer for the quick sizes.
    const count = options.size === "full" ? 1_000_000 : options.size === "small" ? 200_000 : 20_000;
    strings = await benchStrings({ count, seed: options.seed, log: (line) => console.error(line) });
    console.log(formatStringsReport(strings));
  }
  let cache;
  if (options.ops.includes("cache")) {
    cache = await benchChunkCache(options, { dataDir: storesDir, say: log });
    console.log(`\n${formatChunkCacheReport(cache)}`);
  }
  let large;
  if (options.ops.includes("large")) {
    const python = (await probePython()).versions !== undefined;
    if (!python) log("large: zarr-python 2 left out (/usr/bin/python3 with zarr 2 is missing)");
    large = await benchLarge(options, { dataDir, say: log, python });
    console.log(`\n${formatLargeReport(large)}`);
  }
  let browser;
  if (options.ops.includes("browser")) {
    if (chromiumAvailable()) {
      browser = await benchBrowser(options, { dataDir, say: log });
      console.log(`\n${formatBrowserReport(browser)}`);
    } else {
      console.log(`\nbrowser bench left out: no Chromium at ${CHROMIUM_PATH} (set CHROMIUM_PATH)`);
    }
  }
  await writeFile(
    resultsFile,
    `${JSON.stringify({ ...report, node: process.version, versusPython, sharded, strings, cache, large, browser }, (_, v) => (typeof v === "bigint" ? v.toString() : v), 2)}\n`,
  );
  console.error(`results written to ${resultsFile}`);
} finally {
  closePool();
  await rm(storesDir, { recursive: true, force: true });
}

/**
 * `--node 20,24`: this script again under each version, one after the other (never at once: they
 * would share the cores), then their results side by side. A version that cannot be found or
 * installed is left out with a note; a run that fails fails the whole. Resolves to the exit status.
 */
async function acrossNodeVersions() {
  const runs = [];
  const missing = [];
  let status = 0;
  for (const major of options.nodes) {
    const found = await findNode(major, { cacheDir: join(dataDir, "node"), say: log });
    if (found.missing) {
      // Left out, and said so in the report: `pnpm bench` asks for 20 and 24 wherever it runs.
      missing.push(`Node ${major} left out: ${found.missing}`);
      log(`node ${major}: left out: ${found.missing}`);
      continue;
    }
    const file = resultsFile.replace(/(\.json)?$/, `-node${major}.json`);
    await rm(file, { force: true });
    log(`node ${major}: ${found.binary} (${found.version})`);
    console.log(`\n## Node ${found.version}\n`);
    const code = await runChild(found.binary, script, [
      ...childArguments(process.argv.slice(2)),
      "--results",
      file,
    ]);
    if (code !== 0) {
      log(`node ${major}: the run failed (exit status ${code})`);
      status = code;
      continue;
    }
    runs.push({
      label: `Node ${found.version}`,
      results: JSON.parse(await readFile(file, "utf8")),
    });
  }
  for (const line of missing) console.log(`\n${line}`);
  if (runs.length > 0) {
    console.log(`\n${formatSideBySide(runs)}`);
    await writeFile(resultsFile, `${JSON.stringify({ runs, missing }, null, 2)}\n`);
    console.error(`results written to ${resultsFile}`);
  }
  return runs.length === 0 && status === 0 ? 1 : status;
}
