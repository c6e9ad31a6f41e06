// `pnpm bench`: @z against zarrita, side by side in one process on the same data.
// Options: --size full|small|tiny, --codecs none,gzip,zstd,blosc, --ops write,read,chunk,strings,
// --repeats N, --chunk-reads N, --fsync on|off, --seed N (or BENCH_SIZE, BENCH_CODECS, ...).
// Tables go to stdout, progress to stderr, the results as JSON to bench/data/results.json.
import { mkdir, rm, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseOptions } from "./lib/options.mjs";
import { formatReport } from "./lib/report.mjs";
import { benchStrings, formatStringsReport } from "./lib/strings.mjs";
import { runSuite } from "./lib/suite.mjs";

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
  const report = await runSuite(options, {
    dataDir: storesDir,
    log: (line) => console.error(line),
  });
  console.log(formatReport(report));
  let strings;
  if (options.ops.includes("strings")) {
    // 1M short strings at full size, as the strings issue asks; fewer for the quick sizes.
    const count = options.size === "full" ? 1_000_000 : options.size === "small" ? 200_000 : 20_000;
    strings = await benchStrings({ count, seed: options.seed, log: (line) => console.error(line) });
    console.log(formatStringsReport(strings));
  }
  await writeFile(
    resultsFile,
    `${JSON.stringify({ ...report, strings }, (_, v) => (typeof v === "bigint" ? v.toString() : v), 2)}\n`,
  );
  console.error(`results written to ${resultsFile}`);
} finally {
  await rm(storesDir, { recursive: true, force: true });
}
