// Every array of the conformance fixtures, read as users read it: through the built packages
// (dist/) in fresh Node processes (this Node's version), three ways (the umbrella's openArray,
// the zarr command, @z/array + @z/store-fs alone), each with the decode pool as it comes, with
// every chunk forced to a worker, and with no pool; compared exactly with independent readers.
// See README.md in this folder for what is read, how, and how to read the counts.
import { mkdirSync, writeFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import path from "node:path";
import { builtPackagesOrWarn, fixturesDir, haveFixtures, repositoryRoot } from "@z/test-utils";
import { beforeAll, describe, expect, it } from "vitest";
import { conformanceCacheRoot, type Plan, preparePlan } from "./lib/references.mjs";
import { countRun, describeGroup, groupFailures, judge, type RunCounts } from "./lib/report.mjs";
import { inParallel, MODES, runFirstUse, runWay, type WayRun } from "./lib/run-ways.mjs";
import { coveringSample } from "./lib/sample.mjs";

const suite = "conformance (built packages)";
const WAYS = ["umbrella", "cli", "minimal"] as const;
const MODE_NAMES = Object.keys(MODES) as (keyof typeof MODES)[];
const ready =
  haveFixtures(suite) &&
  builtPackagesOrWarn(suite, ["zarr", "cli", "array", "store-fs", "codecs", "dtypes-vlen"]);

/** Where references (keyed by the fixtures' content) and each run's outcomes are kept. */
const cacheRoot = conformanceCacheRoot(repositoryRoot);
const say = (line: string) => console.log(`[conformance] ${line}`);

interface Judged {
  run: WayRun;
  label: string;
  counts: RunCounts;
}

describe.skipIf(!ready)(suite, () => {
  let plan: Plan;
  let judged: Judged[] = [];
  let firstUse: number[] = [];

  beforeAll(async () => {
    const started = Date.now();
    plan = await preparePlan({ fixturesDir: fixturesDir!, cacheRoot, log: say });
    const planFile = path.join(plan.dir, "plan.json");
    const workDir = path.join(cacheRoot, "runs", `node-${process.versions.node}`);
    mkdirSync(workDir, { recursive: true });
    firstUse = coveringSample(plan);
    const binFile = path.join(repositoryRoot, "packages", "cli", "bin", "zarr.js");
    const common = { plan, planFile, workDir, cwd: repositoryRoot, binFile };
    // The longest runs first, two at a time (CI has two cores; forced runs add a worker).
    const tasks = [
      ...WAYS.flatMap((way) =>
        MODE_NAMES.map(
          (mode) => () =>
            runWay({
              planFile,
              arrayCount: plan.arrays.length,
              way,
              mode,
              workDir,
              cwd: repositoryRoot,
            }),
        ),
      ),
      ...WAYS.flatMap((way) =>
        MODE_NAMES.map((mode) => () => runFirstUse({ ...common, sample: firstUse, way, mode })),
      ),
    ];
    const runs = await inParallel(tasks, Math.max(2, Math.min(4, availableParallelism())));
    judged = runs.map((run) => ({
      run,
      label: `${run.way} / ${run.mode}${run.kind.startsWith("first") ? ` (${run.kind})` : ""}`,
      counts: countRun(plan, run),
    }));
    report(plan, judged, firstUse, workDir, (Date.now() - started) / 1000);
  }, 20 * 60_000);

  for (const way of WAYS)
    for (const mode of MODE_NAMES)
      it(`${way}, pool ${mode}: every array a reference reads is read equal; the others read or fail as documented`, () => {
        const runs = judged.filter((j) => j.run.way === way && j.run.mode === mode);
        expect(runs.length).toBe(2);
        for (const j of runs) {
          expect(j.counts.counts.arrays).toBeGreaterThan(0);
          const failures = j.counts.failures.map((f) => `${f.id}: ${f.cause}: ${f.reason}`);
          expect(failures, j.label).toEqual([]);
        }
      });

  it("the forced mode decoded chunks in workers (pool statistics)", () => {
    const forced = judged.filter((j) => j.run.mode === "forced" && j.run.stats);
    expect(forced.length).toBeGreaterThan(0);
    for (const j of forced) {
      expect(j.run.stats?.pool, j.label).toMatch(/^forced/);
      expect(j.run.stats?.dispatched ?? 0, j.label).toBeGreaterThan(0);
      // What stays inline under inlineBelow 0 is only chunks whose container is not a TypedArray.
      expect(j.run.stats?.dispatched ?? 0, j.label).toBeGreaterThan(
        10 * (j.run.stats?.inline ?? 0),
      );
    }
  });

  it("every feature of the fixtures is read first in a process of its own", () => {
    expect(firstUse.length).toBeGreaterThan(10);
  });
});

function pad(text: string | number, width: number): string {
  return String(text).padStart(width);
}

/** Prints the counts, the failures by cause, the references' own troubles, and where the rest is. */
function report(plan: Plan, judged: Judged[], sample: number[], workDir: string, seconds: number) {
  const withRefs = plan.arrays.filter((a) => a.refs.length > 0).length;
  const disagree = plan.arrays.filter((a) => a.disagreement);
  const none = plan.arrays.filter((a) => a.refs.length === 0);
  const sources = new Map<string, number>();
  for (const a of plan.arrays) sources.set(a.source, (sources.get(a.source) ?? 0) + 1);
  say(`Node ${process.versions.node}; references ${plan.dir}`);
  say(`readers: ${plan.readers.python}; ${plan.readers.zarrita}; the fixtures' expected values`);
  say(
    `arrays found: ${plan.arrays.length} (${[...sources].map(([s, n]) => `${s} ${n}`).join(", ")})`,
  );
  say(
    `with a reference: ${withRefs} (readers disagree on ${disagree.length}); no reader reads ${none.length}`,
  );
  for (const a of disagree) say(`  readers disagree: ${a.id}: ${a.disagreement}`);
  const noneReasons = new Map<string, number>();
  for (const a of none)
    for (const f of a.failures.length ? a.failures : ["no reader tried it"]) {
      const key = f.replace(/\d+/g, "N").slice(0, 140);
      noneReasons.set(key, (noneReasons.get(key) ?? 0) + 1);
    }
  for (const [reason, n] of [...noneReasons].sort((x, y) => y[1] - x[1]))
    say(`  not read by a reference (${n}): ${reason}`);
  const setAside = new Map<string, number>();
  for (const a of plan.arrays)
    for (const f of a.failures.filter((x) => x.includes("set aside")))
      setAside.set(f, (setAside.get(f) ?? 0) + 1);
  for (const [why, n] of setAside) say(`  reading ${why} (${n} arrays)`);

  say(
    `${"way / mode".padEnd(48)} arrays  equal   read refused    n/a failed  workers/inline  procs  s`,
  );
  for (const j of judged) {
    const c = j.counts.counts;
    const stats = j.run.stats;
    const pool = stats?.dispatched !== undefined ? `${stats.dispatched}/${stats.inline}` : "-";
    say(
      `${j.label.padEnd(48)} ${pad(c.arrays, 6)} ${pad(c.equal, 6)} ${pad(c.read, 6)} ${pad(c.refused, 7)} ${pad(c["not applicable"], 6)} ${pad(c.failed, 6)} ${pad(pool, 15)} ${pad(j.run.processes, 6)} ${pad(Math.round(j.run.seconds), 3)}`,
    );
  }
  say("equal: as a reference read it; read: no reference reads it, we read it without error;");
  say(
    "refused: a documented refusal with its typed error (README); n/a: the way cannot address it",
  );
  say(
    `the CLI runs main() of dist for all arrays in one process, and the real zarr binary (packages/cli/bin/zarr.js) for the ${sample.length} first-use arrays, a process each`,
  );
  const reasons = new Map<string, Set<string>>();
  for (const j of judged)
    for (const [reason] of j.counts.reasons) {
      if (!reasons.has(reason)) reasons.set(reason, new Set());
      reasons.get(reason)!.add(j.label);
    }
  for (const [reason, labels] of reasons) say(`  ${reason} (${labels.size} runs)`);

  const groups = groupFailures(
    judged.map((j) => ({ label: j.label, failures: j.counts.failures })),
  );
  if (groups.length) {
    say(`FAILURES, by cause (${groups.length}):`);
    for (const g of groups) for (const line of describeGroup(g)) say(`  ${line}`);
  } else say("no failures");

  // Per source: each array's worst verdict over every run (failed, refused, n/a, read, equal).
  const order = ["failed", "refused", "not applicable", "read", "equal"];
  const bySource = new Map<string, Map<string, number>>();
  plan.arrays.forEach((a, i) => {
    let worst = "equal";
    for (const j of judged) {
      const line = j.run.lines.get(i);
      if (!line) continue;
      const v = judge(a, line, j.run.way).verdict;
      if (order.indexOf(v) < order.indexOf(worst)) worst = v;
    }
    if (!bySource.has(a.source)) bySource.set(a.source, new Map());
    const m = bySource.get(a.source)!;
    m.set(worst, (m.get(worst) ?? 0) + 1);
  });
  say("per source, each array's worst outcome over all runs:");
  for (const [source, m] of bySource)
    say(
      `  ${source.padEnd(34)} ${order
        .filter((v) => m.has(v))
        .map((v) => `${v} ${m.get(v)}`)
        .join(", ")}`,
    );

  for (const j of judged) {
    for (const c of j.run.crashes)
      say(`  ${j.label}: process stopped at ${plan.arrays[c.i]?.id}: ${c.why}`);
    for (const s of j.run.stderr.slice(0, 3)) say(`  ${j.label}: stderr ${s.count}x: ${s.line}`);
  }

  // Per-array outcomes, one column per run.
  const header = ["array", "source", "references", ...judged.map((j) => j.label)];
  const rows = plan.arrays.map((a, i) => [
    a.id,
    a.source,
    a.refs.map((r) => r.readers.join("+")).join(" | ") || "none",
    ...judged.map((j) => {
      const line = j.run.lines.get(i);
      if (!line) return "";
      const v = judge(a, line, j.run.way);
      return v.reason ? `${v.verdict}: ${v.reason}` : v.verdict;
    }),
  ]);
  const file = path.join(workDir, "outcomes.tsv");
  writeFileSync(
    file,
    [header, ...rows].map((r) => r.map((c) => c.replace(/[\t\n]/g, " ")).join("\t")).join("\n"),
  );
  say(`per-array outcomes: ${file}`);
  say(`took ${Math.round(seconds)} s`);
}
