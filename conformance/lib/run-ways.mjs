// Runs the ways of reading in fresh Node processes (the Node running this, so CI's second Node
// version covers them too) and collects what each read: read-arrays.mjs for all arrays of one
// way and pool mode per process (restarted after the array a crash happened on), and the real
// `zarr` binary on a sample, one process per array.
import { spawn } from "node:child_process";
import { appendFileSync, existsSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { cliResult, compareWithReferences, describeError } from "./outcome.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const READER = path.join(here, "read-arrays.mjs");

/** The decode pool modes: as it comes, every chunk forced to a worker, and no pool. */
export const MODES = {
  default: [],
  forced: ["--import", pathToFileURL(path.join(here, "pool-forced.mjs")).href],
  "no pool": ["--import", pathToFileURL(path.join(here, "pool-off.mjs")).href],
};

/** How long a process may go without finishing an array before it counts as hung. */
const STALL_MS = 120_000;

function runProcess(args, { cwd, onTick, timeoutMs }) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => {
      stdout += d;
    });
    child.stderr.on("data", (d) => {
      stderr += d;
    });
    let killedFor;
    const timer = setInterval(() => {
      const reason = onTick?.();
      if (reason && !killedFor) {
        killedFor = reason;
        child.kill("SIGKILL");
      }
    }, 2_000);
    const deadline = timeoutMs
      ? setTimeout(() => {
          killedFor = `no answer after ${timeoutMs / 1000} s`;
          child.kill("SIGKILL");
        }, timeoutMs)
      : undefined;
    child.on("close", (code, signal) => {
      clearInterval(timer);
      clearTimeout(deadline);
      resolve({ code, signal, stdout, stderr, killedFor });
    });
  });
}

function readLines(file) {
  if (!existsSync(file)) return [];
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l));
}

/** Lines of a process's stderr, digits folded so repeats count as one, most frequent first. */
export function summariseStderr(text) {
  const counts = new Map();
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (!line || line.startsWith("(Use `node --trace-warnings")) continue;
    const key = line
      .replace(/\(node:\d+\)/, "(node)")
      .replace(/\d+/g, "N")
      .slice(0, 200);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts].sort((a, b) => b[1] - a[1]).map(([line, count]) => ({ line, count }));
}

/**
 * Reads every array of the plan one way in one pool mode, in as few fresh processes as crashes
 * allow.
 */
export async function runWay({ planFile, arrayCount, way, mode, workDir, cwd }) {
  const results = path.join(workDir, `${way}-${mode.replace(/\W/g, "_")}.ndjson`);
  rmSync(results, { force: true });
  const started = Date.now();
  let stderr = "";
  let processes = 0;
  const crashes = [];
  let stats;
  for (let from = 0; from < arrayCount; ) {
    processes++;
    let lastCount = readLines(results).length;
    let lastProgress = Date.now();
    const run = await runProcess(
      [...MODES[mode], READER, planFile, way, String(from), String(arrayCount), results],
      {
        cwd,
        onTick: () => {
          const count = readLines(results).length;
          if (count !== lastCount) {
            lastCount = count;
            lastProgress = Date.now();
          }
          return Date.now() - lastProgress > STALL_MS
            ? `no array finished in ${STALL_MS / 1000} s`
            : undefined;
        },
      },
    );
    stderr += run.stderr;
    const lines = readLines(results);
    // The process reads in order from `from`: it stopped at the first array it did not report.
    const reported = new Set(lines.filter((l) => l.i !== undefined).map((l) => l.i));
    let next = from;
    while (next < arrayCount && reported.has(next)) next++;
    if (next >= arrayCount) break;
    const why = run.killedFor ?? `the process ended (code ${run.code}, signal ${run.signal})`;
    crashes.push({ i: next, why, stderr: run.stderr.trim().split("\n").slice(-3).join(" | ") });
    from = next + 1;
    appendFileSync(
      results,
      `${JSON.stringify({ i: next, status: "error", error: { name: run.killedFor ? "Hang" : "ProcessCrash", message: `${why}: ${run.stderr.trim().split("\n").slice(-2).join(" | ").slice(0, 300)}`, typed: false } })}\n`,
    );
  }
  const all = readLines(results);
  // Each process reports its pool's counts; after a restart there are several to add up.
  for (const { stats: s } of all.filter((l) => l.stats)) {
    if (!stats) stats = { ...s };
    else {
      stats.dispatched = (stats.dispatched ?? 0) + (s.dispatched ?? 0);
      stats.inline = (stats.inline ?? 0) + (s.inline ?? 0);
    }
  }
  const lines = all.filter((l) => l.i !== undefined);
  const byIndex = new Map(lines.map((l) => [l.i, l]));
  return {
    way,
    mode,
    kind: "all arrays, one process",
    lines: byIndex,
    stats,
    processes,
    crashes,
    stderr: summariseStderr(stderr),
    seconds: (Date.now() - started) / 1000,
  };
}

/**
 * Reads a sample of arrays through the real `zarr` binary (packages/cli/bin/zarr.js, which loads
 * dist/bin.js), one fresh process per array, in one pool mode.
 */
export async function runBinSample({ plan, sample, mode, binFile, cwd }) {
  const lines = new Map();
  const started = Date.now();
  for (const i of sample) {
    const entry = plan.arrays[i];
    const args = [
      ...MODES[mode],
      binFile,
      "get",
      entry.location,
      ...(entry.path ? ["--path", entry.path] : []),
      "--json",
    ];
    const run = await runProcess(args, { cwd, timeoutMs: 60_000 });
    const line = { i, id: entry.id };
    try {
      if (run.killedFor) throw Object.assign(new Error(run.killedFor), { name: "Hang" });
      const ours = cliResult(run.code, run.stdout, run.stderr);
      if (ours.contract.length) line.contract = ours.contract;
      if (entry.refs.length === 0) line.status = "read";
      else {
        const { matched, differences } = compareWithReferences(entry, ours);
        line.status = matched.length ? "equal" : "differs";
        line.matched = matched;
        if (differences.length) line.differences = differences;
      }
    } catch (error) {
      line.status = "error";
      line.error = describeError(error);
    }
    lines.set(i, line);
  }
  return {
    way: "cli (bin)",
    mode,
    lines,
    processes: sample.length,
    crashes: [],
    stderr: [],
    seconds: (Date.now() - started) / 1000,
  };
}

/**
 * Reads each sampled array in a process of its own (the umbrella and the minimal assembly
 * through read-arrays.mjs, the CLI through its real binary), so each array's features are used
 * for the first time in that process.
 */
export async function runFirstUse({ plan, planFile, sample, way, mode, workDir, binFile, cwd }) {
  if (way === "cli") {
    const run = await runBinSample({ plan, sample, mode, binFile, cwd });
    return { ...run, way: "cli", kind: "first use (zarr binary)" };
  }
  const results = path.join(workDir, `first-${way}-${mode.replace(/\W/g, "_")}.ndjson`);
  rmSync(results, { force: true });
  const started = Date.now();
  let stderr = "";
  const lines = new Map();
  for (const i of sample) {
    const run = await runProcess(
      [...MODES[mode], READER, planFile, way, String(i), String(i + 1), results],
      {
        cwd,
        timeoutMs: 90_000,
      },
    );
    stderr += run.stderr;
    const line = readLines(results).find((l) => l.i === i);
    lines.set(
      i,
      line ?? {
        i,
        id: plan.arrays[i].id,
        status: "error",
        error: {
          name: run.killedFor ? "Hang" : "ProcessCrash",
          message: `${run.killedFor ?? `the process ended (code ${run.code}, signal ${run.signal})`}: ${run.stderr.trim().split("\n").slice(-2).join(" | ").slice(0, 300)}`,
          typed: false,
        },
      },
    );
  }
  const stats = readLines(results).filter((l) => l.stats);
  const dispatched = stats.reduce((n, l) => n + (l.stats.dispatched ?? 0), 0);
  const inline = stats.reduce((n, l) => n + (l.stats.inline ?? 0), 0);
  return {
    way,
    mode,
    kind: "first use",
    lines,
    stats: { pool: stats[0]?.stats.pool, dispatched, inline },
    processes: sample.length,
    crashes: [],
    stderr: summariseStderr(stderr),
    seconds: (Date.now() - started) / 1000,
  };
}

/** Runs async tasks with at most `limit` at a time, in order of the list. */
export async function inParallel(tasks, limit) {
  const results = new Array(tasks.length);
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const k = next++;
      results[k] = await tasks[k]();
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, worker));
  return results;
}
