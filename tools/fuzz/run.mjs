// `pnpm fuzz`: runs the fuzz suite (packages/zarr/test/fuzz) with as many cases as asked, then
// prints the inputs tried, the time and the failures of every target.
//
//   pnpm fuzz --runs 1000000            cases over all targets (shared by their CI weights)
//   pnpm fuzz --only metadata/v3        only targets whose name contains this
//   pnpm fuzz --seed 1234               a fixed seed (default: a fresh one per target)
//   pnpm fuzz --replay <case.json>      run one failing case again (written by a previous run)
//   pnpm fuzz --replay <case.json> --shrink   ... and let fast-check shrink it
//   --timeout MS (per case, default 2000), --rss-mb MB (growth per case, default 256),
//   --out DIR (failing cases, default .tmp/fuzz-failures), --workers N (parallel test files)
//
// Every option also has an environment form (FUZZ_RUNS, FUZZ_ONLY, FUZZ_SEED, FUZZ_REPLAY,
// FUZZ_SHRINK, FUZZ_TIMEOUT_MS, FUZZ_RSS_MB, FUZZ_OUT) read by the suite itself, so
// `FUZZ_RUNS=50000 npx vitest run packages/zarr/test/fuzz` works too.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const suiteDir = "packages/zarr/test/fuzz";

/** The test file of each target family. */
const FILES = {
  metadata: "metadata.test.ts",
  chunks: "chunks.test.ts",
  "shard-index": "shard-index.test.ts",
  icechunk: "icechunk.test.ts",
  keys: "keys.test.ts",
  values: "values.test.ts",
};

function parse(argv) {
  const options = {};
  const flags = new Set(["shrink"]);
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (!arg.startsWith("--")) throw new Error(`Unexpected argument ${arg}`);
    const [name, inline] = arg.slice(2).split("=", 2);
    if (flags.has(name)) options[name] = true;
    else {
      const value = inline ?? argv[++i];
      if (value === undefined) throw new Error(`--${name} needs a value`);
      options[name] = value;
    }
  }
  const known = ["runs", "only", "seed", "replay", "shrink", "timeout", "rss-mb", "out", "workers"];
  for (const name of Object.keys(options)) {
    if (!known.includes(name))
      throw new Error(`Unknown option --${name} (known: ${known.join(", ")})`);
  }
  return options;
}

let options;
try {
  options = parse(process.argv.slice(2));
} catch (error) {
  console.error(error.message);
  process.exit(2);
}

// The caller's environment, passed on to the suite (which reads the FUZZ_* variables itself).
const inherited = { ...process.env };
const outDir = resolve(options.out ?? inherited.FUZZ_OUT ?? join(root, ".tmp", "fuzz-failures"));
mkdirSync(outDir, { recursive: true });
const summaryFile = join(outDir, `summary-${process.pid}.jsonl`);
rmSync(summaryFile, { force: true });

const env = { ...inherited, FUZZ_OUT: outDir, FUZZ_SUMMARY: summaryFile };
// A random seed per target unless one is given: `pnpm fuzz` explores, CI repeats itself.
env.FUZZ_RUNS = options.runs ?? inherited.FUZZ_RUNS ?? "100000";
if (options.seed !== undefined) env.FUZZ_SEED = options.seed;
if (options.only !== undefined) env.FUZZ_ONLY = options.only;
if (options.timeout !== undefined) env.FUZZ_TIMEOUT_MS = options.timeout;
if (options["rss-mb"] !== undefined) env.FUZZ_RSS_MB = options["rss-mb"];
if (options.shrink) env.FUZZ_SHRINK = "1";

const allFiles = Object.values(FILES).map((f) => `${suiteDir}/${f}`);
let files = allFiles;
if (options.replay !== undefined) {
  const file = resolve(options.replay);
  if (!existsSync(file)) {
    console.error(`No such case file: ${file}`);
    process.exit(2);
  }
  env.FUZZ_REPLAY = file;
  files = [fileOf(JSON.parse(readFileSync(file, "utf8")).target)];
} else if (options.only !== undefined) {
  const family = Object.keys(FILES).filter(
    (f) => f.includes(options.only) || options.only.startsWith(f),
  );
  if (family.length) files = family.map((f) => `${suiteDir}/${FILES[f]}`);
}

/** The test file holding a target. */
function fileOf(target) {
  const family = Object.keys(FILES).find((f) => target === f || target.startsWith(`${f}/`));
  if (!family) {
    console.error(`Unknown fuzz target ${JSON.stringify(target)}`);
    process.exit(2);
  }
  return `${suiteDir}/${FILES[family]}`;
}

// --expose-gc lets the suite collect garbage before its periodic RSS checks.
env.NODE_OPTIONS = `${inherited.NODE_OPTIONS ?? ""} --expose-gc`.trim();
const vitest = join(root, "node_modules", "vitest", "vitest.mjs");

/** The line without terminal colour codes. */
const stripColours = (line) =>
  line.replace(new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, "g"), "");

function runVitest(testFiles, extraEnv) {
  const args = [
    vitest,
    "run",
    ...testFiles,
    "--testTimeout=0",
    "--hookTimeout=600000",
    "--reporter=dot",
  ];
  if (options.workers !== undefined) args.push(`--maxWorkers=${options.workers}`);
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: { ...env, ...extraEnv },
    stdio: ["ignore", "pipe", "inherit"],
  });
  // The suite's own lines (target reports) pass through; vitest's dots and chatter stay quiet.
  child.stdout.on("data", (chunk) => {
    for (const line of chunk.toString().split("\n")) {
      if (/\[fuzz|^ {2}\S/.test(stripColours(line))) process.stdout.write(`${line}\n`);
    }
  });
  return new Promise((done) => child.on("close", done));
}

function readSummaries() {
  if (!existsSync(summaryFile)) return [];
  return readFileSync(summaryFile, "utf8")
    .trim()
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l));
}

/**
 * Per target, over every attempt: cases run, seconds, failures, kinds, seeds. A target a
 * watchdog kill cut short counts the cases of its last progress line plus the killed one,
 * and carries on (fresh seed) with the rest of its cases.
 */
const totals = new Map();
const CI_RUNS = JSON.parse(readFileSync(join(root, suiteDir, "ci-runs.json"), "utf8"));
const CI_TOTAL = Object.values(CI_RUNS).reduce((a, b) => a + b, 0);

/** The cases a target runs in this attempt (as the suite computes them). */
function plannedRuns(target, plan) {
  if (plan) return plan[target] ?? 0;
  return Math.max(1, Math.round((Number(env.FUZZ_RUNS) * CI_RUNS[target]) / CI_TOTAL));
}

function tally(lines, plan) {
  const remaining = {};
  // A kill also stops the targets after the killed one in its file: they carry on in full.
  const killedFiles = new Set(lines.filter((l) => l.killed).map((l) => fileOf(l.target)));
  for (const target of Object.keys(CI_RUNS)) {
    if (!killedFiles.has(fileOf(target)) || lines.some((l) => l.target === target)) continue;
    if (options.only !== undefined && !target.includes(options.only)) continue;
    const runs = plannedRuns(target, plan);
    if (runs > 0) remaining[target] = runs;
  }
  const byTarget = new Map();
  for (const line of lines) {
    if (!byTarget.has(line.target)) byTarget.set(line.target, []);
    byTarget.get(line.target).push(line);
  }
  for (const [target, entries] of byTarget) {
    const t = totals.get(target) ?? {
      target,
      runs: 0,
      seconds: 0,
      failureCount: 0,
      kinds: new Map(),
      seeds: [],
      killed: 0,
    };
    totals.set(target, t);
    const start = entries.find((e) => e.start);
    const done = entries.find((e) => !e.start && !e.partial && !e.killed);
    const partial = entries.filter((e) => e.partial).at(-1);
    const killed = entries.find((e) => e.killed);
    const last = done ?? partial;
    if (start) t.seeds.push(start.seed);
    let ran = last?.runs ?? 0;
    if (last) {
      t.seconds += last.seconds;
      t.failureCount += last.failureCount;
      for (const k of last.kinds) {
        const seen = t.kinds.get(k.signature) ?? { ...k, count: 0, files: [] };
        seen.count += k.count;
        seen.files = [...seen.files, ...k.files].slice(0, 3);
        t.kinds.set(k.signature, seen);
      }
    }
    if (!done && killed) {
      ran += 1;
      t.killed += 1;
      t.failureCount += 1;
      const seen = t.kinds.get(killed.signature) ?? {
        signature: killed.signature,
        count: 0,
        files: [],
        example: `case ${killed.path} of seed ${killed.seed}`,
      };
      seen.count += 1;
      seen.files = [...seen.files, killed.file].slice(0, 3);
      t.kinds.set(killed.signature, seen);
      if (start && start.planned - ran > 0) remaining[target] = start.planned - ran;
    }
    t.runs += ran;
  }
  return remaining;
}

const MAX_ATTEMPTS = 20;
const started = Date.now();
console.error(
  `fuzz: ${options.replay ? `replaying ${options.replay}` : `${env.FUZZ_RUNS} cases`}; failing cases go to ${outDir}`,
);
let code = await runVitest(files, {});
let remaining = options.replay ? {} : tally(readSummaries(), undefined);
for (let attempt = 1; Object.keys(remaining).length > 0 && attempt < MAX_ATTEMPTS; attempt++) {
  console.error(
    `fuzz: a watchdog kill cut ${Object.keys(remaining).join(", ")} short; carrying on with the remaining cases`,
  );
  rmSync(summaryFile, { force: true });
  const planFiles = [...new Set(Object.keys(remaining).map(fileOf))];
  // A given seed moves on too: the same seed would repeat the cases already run.
  const retryEnv = { FUZZ_PLAN: JSON.stringify(remaining) };
  if (options.seed !== undefined) retryEnv.FUZZ_SEED = String(Number(options.seed) + attempt);
  code = (await runVitest(planFiles, retryEnv)) || code;
  remaining = tally(readSummaries(), JSON.parse(retryEnv.FUZZ_PLAN));
}
if (options.replay) tally(readSummaries(), undefined);

const seconds = (Date.now() - started) / 1000;
const summaries = [...totals.values()].sort((a, b) => (a.target < b.target ? -1 : 1));
const total = summaries.reduce((a, s) => a + s.runs, 0);
const failing = summaries.reduce((a, s) => a + s.failureCount, 0);
console.log("\nfuzz summary");
console.log("target                      cases   seconds   failing  seeds");
for (const s of summaries) {
  console.log(
    `${s.target.padEnd(24)} ${String(s.runs).padStart(9)} ${s.seconds.toFixed(1).padStart(9)} ${String(s.failureCount).padStart(9)}  ${s.seeds.join(" ")}`,
  );
}
console.log(
  `${"total".padEnd(24)} ${String(total).padStart(9)} ${seconds.toFixed(1).padStart(9)} ${String(failing).padStart(9)}  (wall clock)`,
);
const kinds = summaries.flatMap((s) =>
  [...s.kinds.values()].map((k) => ({ ...k, target: s.target })),
);
if (kinds.length) {
  console.log(`\n${kinds.length} kinds of failure:`);
  for (const k of kinds.sort((a, b) => b.count - a.count)) {
    console.log(`  ${String(k.count).padStart(7)} x [${k.target}] ${k.signature}`);
    console.log(`            e.g. ${String(k.example).split("\n")[0].slice(0, 160)}`);
    if (k.files[0]) console.log(`            replay: pnpm fuzz --replay ${k.files[0]}`);
  }
}
writeFileSync(
  join(outDir, "summary.json"),
  JSON.stringify(
    {
      seconds,
      total,
      failing,
      targets: summaries.map((s) => ({ ...s, kinds: [...s.kinds.values()] })),
    },
    null,
    2,
  ),
);
process.exit(failing > 0 ? 1 : (code ?? 1));
