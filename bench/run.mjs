// `pnpm bench`: @z against zarrita, side by side in one process on the same data, then against
// zarrita and zarr-python 2 (Debian's /usr/bin/python3, when present) on v2 arrays.
// Options: --size full|small|tiny, --codecs none,gzip,zstd,blosc,
// --ops write,read,chunk,python,sharded,strings, --repeats N, --chunk-reads N, --fsync on|off,
// --seed N, --workers auto|N (or BENCH_SIZE, BENCH_CODECS, ...).
// Tables go to stdout, progress to stderr, the results as JSON to bench/data/results.json.
import { mkdir, rm, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseOptions } from "./lib/options.mjs";
import { probePython } from "./lib/python.mjs";
import { formatReport } from "./lib/report.mjs";
import { formatPythonReport, formatShardedReport } from "./lib/report-python.mjs";
import { benchSharded } from "./lib/sharded.mjs";
import { benchStrings, formatStringsReport } from "./lib/strings.mjs";
import { runSuite } from "./lib/suite.mjs";
import { benchVersusPython } from "./lib/versus-python.mjs";
import { makeVolume } from "./lib/volume.mjs";
import { closePool, poolFor } from "./lib/workers.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const dataDir = join(here, "data");
const storesDir = join(dataDir, "stores");
const resultsFile = join(dataDir, "results.json");

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

await mkdir(dataDir, { recursive: true });
try {
  const log = (line) => console.error(line);
  poolFor(options.workers);
  const volume = makeVolume(options.shape, options.seed);
  const report = await runSuite(options, { dataDir: storesDir, log, volume });
  console.log(formatReport(report));
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
  await writeFile(
    resultsFile,
    `${JSON.stringify({ ...report, versusPython, sharded, strings }, (_, v) => (typeof v === "bigint" ? v.toString() : v), 2)}\n`,
  );
  console.error(`results written to ${resultsFile}`);
} finally {
  closePool();
  await rm(storesDir, { recursive: true, force: true });
}
