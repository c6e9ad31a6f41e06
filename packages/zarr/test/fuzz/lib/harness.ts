import { createHash } from "node:crypto";
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { isZarrError } from "@z/zarr";
import fc from "fast-check";
import { type FuzzConfig, fuzzConfig, runsFor } from "./config.js";
import { Watchdog } from "./watchdog.js";

/**
 * The fuzz harness: runs a target's cases (inputs from a fast-check arbitrary), each of which
 * must end in success or a typed `@z` error (`isZarrError`) within the time limit and without
 * growing RSS past the limit. Failing cases are counted by kind and written (seed, path, input)
 * to the failures folder, so `pnpm fuzz --replay <file>` runs one again.
 */

/** One fuzz target. */
export interface FuzzTarget<T> {
  /** Its name, a key of `CI_RUNS` (e.g. `metadata/v3`). */
  name: string;
  /** Where the inputs come from. */
  arbitrary: fc.Arbitrary<T>;
  /**
   * Runs one case. Resolving or throwing a typed `@z` error passes; anything else fails. A
   * broken invariant (a file changed outside a store) is thrown as {@link InvariantError}.
   */
  run(input: T): Promise<unknown>;
  /**
   * The input in readable form for the failure record, published before each case (keep it
   * cheap; default `fc.stringify` of the input).
   */
  describe?(input: T): unknown;
  /** More about a failing input (e.g. the mutated document), computed only on failure. */
  details?(input: T): unknown;
  /**
   * Runs before the cases, untimed: loads what loads on first use (the Arrow library, WASM
   * codecs), so a slow first load does not count against the first case's time limit.
   */
  warmUp?(): Promise<void>;
}

/** An invariant the fuzz target checks itself was broken (always a failure). */
export class InvariantError extends Error {
  override name = "InvariantError";
}

/** One kind of failure (same error class, message shape and throwing line). */
export interface FailureKind {
  signature: string;
  count: number;
  /** The failing-case files written for it (at most 3). */
  files: string[];
  /** The first message seen. */
  example: string;
}

/** What a target's run found. */
export interface FuzzSummary {
  target: string;
  seed: number;
  runs: number;
  seconds: number;
  failureCount: number;
  kinds: FailureKind[];
  /** A readable report (printed, and the message of a failing test). */
  report: string;
}

const FILES_PER_KIND = 3;
const DESCRIPTION_CHARS = 200_000;

/** A stable 31-bit seed from the target's name: CI runs the same cases every time. */
function stableSeed(name: string): number {
  return createHash("sha256").update(name).digest().readUInt32LE(0) >>> 1;
}

/** The throwing line inside our packages, e.g. `codecs/src/blosc/header.ts:41`. */
function throwingFrame(error: unknown): string {
  const stack = error instanceof Error ? (error.stack ?? "") : "";
  for (const line of stack.split("\n").slice(1)) {
    const match = /packages\/([^):]+):(\d+)/.exec(line);
    if (match && !match[1].includes("/test/")) return `${match[1]}:${match[2]}`;
  }
  return "?";
}

/**
 * The error's kind: failure kind, class and throwing line (the message varies with the input,
 * so it only counts when no line of ours threw).
 */
function signatureOf(kind: string, error: unknown): string {
  const name = error instanceof Error ? error.name : typeof error;
  const frame = throwingFrame(error);
  if (frame !== "?") return `${kind}: ${name} @ ${frame}`;
  const message = (error instanceof Error ? error.message : String(error))
    .replace(/"(?:[^"\\]|\\.)*"/g, '"…"')
    .replace(/-?\d+(\.\d+)?(e[+-]?\d+)?/gi, "N")
    .slice(0, 80);
  return `${kind}: ${name}: ${message}`;
}

/** JSON text of a description; bigints as strings, long text cut. */
function jsonText(value: unknown): string {
  try {
    const text = JSON.stringify(value, (_, v) => (typeof v === "bigint" ? `${v}n` : v)) ?? "null";
    return text.length > DESCRIPTION_CHARS
      ? JSON.stringify(`${text.slice(0, DESCRIPTION_CHARS)}…(cut)`)
      : text;
  } catch (e) {
    return JSON.stringify(`(could not describe the input: ${e})`);
  }
}

function describeInput<T>(target: FuzzTarget<T>, input: T): string {
  try {
    return jsonText(target.describe ? target.describe(input) : fc.stringify(input));
  } catch (e) {
    return JSON.stringify(`(could not describe the input: ${e})`);
  }
}

function detailsOf<T>(target: FuzzTarget<T>, input: T): unknown {
  try {
    return target.details?.(input);
  } catch (e) {
    return `(could not compute the details: ${e})`;
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = new Error(`the case did not settle within ${ms} ms`);
      error.name = "Timeout";
      reject(error);
    }, ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

interface Replay {
  target: string;
  seed: number;
  path: string;
}

function readReplay(config: FuzzConfig): Replay | undefined {
  if (!config.replay) return undefined;
  return JSON.parse(readFileSync(config.replay, "utf8")) as Replay;
}

/**
 * Runs a fuzz target: `runsFor(target)` cases, or the one case of `FUZZ_REPLAY` when it
 * names this target (other targets then run nothing).
 */
export async function fuzz<T>(target: FuzzTarget<T>): Promise<FuzzSummary> {
  const config = fuzzConfig();
  const replay = readReplay(config);
  const skip =
    (replay !== undefined && replay.target !== target.name) ||
    (config.only !== undefined && !target.name.includes(config.only));
  const seed =
    replay?.seed ??
    config.seed ??
    (config.totalRuns === undefined ? stableSeed(target.name) : (Math.random() * 2 ** 31) >>> 0);
  const numRuns = skip ? 0 : replay ? 1 : runsFor(target.name, config);
  const summaryLine = (fields: Record<string, unknown>) => {
    if (config.summaryFile && numRuns > 0 && !replay) {
      appendFileSync(
        config.summaryFile,
        `${JSON.stringify({ target: target.name, seed, ...fields })}\n`,
      );
    }
  };
  summaryLine({ start: true, planned: numRuns });
  const kinds = new Map<string, FailureKind>();
  let failureCount = 0;
  let index = replay ? Number(replay.path.split(":")[0]) : 0;
  const started = performance.now();
  const startRss = process.memoryUsage.rss();
  let leakReported = false;
  const slowest: { ms: number; input: string }[] = [];
  /** How cases ended: "ok" or the error's name. */
  const outcomes = new Map<string, number>();
  const watchdog = new Watchdog({
    hangMs: Math.max(config.timeoutMs * 2, config.timeoutMs + 3000),
    rssCapBytes: Math.max(config.rssLimitBytes * 4, 2 ** 30),
    outDir: config.outDir,
    summaryFile: config.summaryFile,
  });

  const record = (
    kind: string,
    error: unknown,
    casePath: string,
    description: string,
    details?: () => unknown,
  ) => {
    failureCount++;
    const signature = signatureOf(kind, error);
    let entry = kinds.get(signature);
    if (!entry) {
      entry = {
        signature,
        count: 0,
        files: [],
        example: error instanceof Error ? error.message.slice(0, 500) : String(error),
      };
      kinds.set(signature, entry);
    }
    entry.count++;
    if (entry.files.length >= FILES_PER_KIND) return;
    const dir = path.join(config.outDir, target.name.replace(/[^A-Za-z0-9_.-]+/g, "_"));
    mkdirSync(dir, { recursive: true });
    const hash = createHash("sha256").update(signature).digest("hex").slice(0, 10);
    const file = path.join(dir, `${hash}-${seed}-${casePath.replace(/:/g, "_")}.json`);
    const err = error instanceof Error ? error : undefined;
    writeFileSync(
      file,
      JSON.stringify(
        {
          target: target.name,
          seed,
          path: casePath,
          kind,
          signature,
          error: { name: err?.name, message: err?.message ?? String(error), stack: err?.stack },
          input: JSON.parse(description),
          details: details?.(),
          replay: `pnpm fuzz --replay ${path.relative(process.cwd(), file)}`,
        },
        null,
        2,
      ),
    );
    entry.files.push(file);
  };

  const runCase = async (input: T, casePath: string): Promise<unknown> => {
    const description = describeInput(target, input);
    watchdog.begin(
      `{"target":${JSON.stringify(target.name)},"seed":${seed},"path":${JSON.stringify(casePath)},"input":${description}}`,
    );
    const base = watchdog.baseline;
    const t0 = performance.now();
    let ended = "ok";
    let failure: { kind: string; error: unknown } | undefined;
    try {
      await withTimeout(target.run(input), config.timeoutMs);
      outcomes.set("ok", (outcomes.get("ok") ?? 0) + 1);
    } catch (error) {
      const name = error instanceof Error ? error.name : typeof error;
      ended = `${name}: ${error instanceof Error ? error.message.slice(0, 160) : String(error)}`;
      outcomes.set(name, (outcomes.get(name) ?? 0) + 1);
      if (error instanceof Error && error.name === "Timeout") failure = { kind: "timeout", error };
      else if (error instanceof InvariantError) failure = { kind: "invariant", error };
      else if (!isZarrError(error)) failure = { kind: "untyped", error };
    }
    const peak = watchdog.end();
    // FUZZ_VERBOSE=1: every case and how it ended (to find which case set up a later failure).
    if (config.verbose)
      process.stderr.write(`[fuzz case] ${casePath} ${ended} | ${description.slice(0, 300)}\n`);
    const ms = performance.now() - t0;
    if (slowest.length < 3 || ms > slowest[slowest.length - 1].ms) {
      slowest.push({ ms, input: description.slice(0, 300) });
      slowest.sort((a, b) => b.ms - a.ms);
      slowest.length = Math.min(slowest.length, 3);
    }
    if (!failure && peak - base > config.rssLimitBytes) {
      failure = {
        kind: "memory",
        error: new Error(
          `RSS grew by ${Math.round((peak - base) / 2 ** 20)} MiB during the case (limit ${config.rssLimitBytes / 2 ** 20} MiB)`,
        ),
      };
    }
    if (failure) {
      record(failure.kind, failure.error, casePath, description, () => detailsOf(target, input));
    }
    return failure?.error;
  };

  // Long runs (`pnpm fuzz`) say how far they are, at most once every 30 s.
  let lastProgress = performance.now();
  const progress = () => {
    // Where a run cut short by the watchdog got to (pnpm fuzz carries on from there).
    summaryLine({
      partial: true,
      runs: index,
      seconds: (performance.now() - started) / 1000,
      failureCount,
      outcomes: Object.fromEntries(outcomes),
      kinds: [...kinds.values()].map((k) => ({ ...k, example: k.example.slice(0, 300) })),
    });
    const now = performance.now();
    if (config.totalRuns === undefined || now - lastProgress < 30_000) return;
    lastProgress = now;
    process.stderr.write(
      `[fuzz progress] ${target.name}: ${index}/${numRuns} cases, ${failureCount} failing, ${((now - started) / 1000).toFixed(0)} s\n`,
    );
  };

  const checkGrowth = () => {
    const gc = (globalThis as { gc?: () => void }).gc;
    gc?.();
    const growth = process.memoryUsage.rss() - startRss;
    // Without --expose-gc garbage counts too, so the bound is looser.
    const bound = config.rssLimitBytes * (gc ? 2 : 4);
    if (!leakReported && growth > bound) {
      leakReported = true;
      record(
        "leak",
        new Error(`RSS grew by ${Math.round(growth / 2 ** 20)} MiB over ${index} cases`),
        String(index),
        JSON.stringify("(the cases up to this one)"),
      );
    }
  };

  try {
    if (numRuns > 0) {
      await target.warmUp?.().catch(() => undefined);
      const property = fc.asyncProperty(target.arbitrary, async (input) => {
        const casePath =
          replay && index === Number(replay.path.split(":")[0]) ? replay.path : String(index);
        index++;
        if (index % 500 === 0) progress();
        if (index % 2000 === 0) checkGrowth();
        const error = await runCase(input, casePath);
        // Replaying with shrinking on: fail the property so fast-check looks for a smaller case.
        if (error && replay && config.shrink) throw error;
      });
      const parameters: fc.Parameters<[T]> = { seed, numRuns, endOnFailure: !config.shrink };
      if (replay) parameters.path = replay.path;
      try {
        await fc.assert(property, parameters);
      } catch (shrunk) {
        // Only with --shrink: fast-check's report holds the minimal counterexample.
        const text = String(shrunk instanceof Error ? shrunk.message : shrunk);
        console.log(
          text
            .split("\n")
            .map((line) => `[fuzz shrink] ${line}`)
            .join("\n"),
        );
      }
      checkGrowth();
    }
  } finally {
    await watchdog.stop();
  }

  const seconds = (performance.now() - started) / 1000;
  const sorted = [...kinds.values()].sort((a, b) => b.count - a.count);
  const lines = [
    `[fuzz] ${target.name}: ${numRuns} cases in ${seconds.toFixed(1)} s, seed ${seed}, ${failureCount} failing${sorted.length ? ` (${sorted.length} kinds)` : ""}`,
  ];
  if (outcomes.size > 0) {
    const ends = [...outcomes].sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k} ${v}`);
    lines.push(`  outcomes: ${ends.join(", ")}`);
  }
  for (const kind of sorted) {
    lines.push(`  ${kind.count} x ${kind.signature}`);
    lines.push(`    e.g. ${kind.example.split("\n")[0].slice(0, 200)}`);
    for (const file of kind.files) lines.push(`    ${path.relative(process.cwd(), file)}`);
  }
  if (process.env.FUZZ_SLOWEST) {
    for (const s of slowest) lines.push(`  slow: ${s.ms.toFixed(0)} ms ${s.input}`);
  }
  const report = lines.join("\n");
  if (numRuns > 0) {
    console.log(report);
    // `pnpm fuzz` collects every target's summary from this file.
    summaryLine({
      runs: numRuns,
      seconds,
      failureCount,
      outcomes: Object.fromEntries(outcomes),
      kinds: sorted.map((k) => ({ ...k, example: k.example.slice(0, 300) })),
    });
  }
  return { target: target.name, seed, runs: numRuns, seconds, failureCount, kinds: sorted, report };
}
