import { Worker } from "node:worker_threads";

/**
 * A watchdog thread for the fuzz cases, which run on the main thread. A case stuck in a
 * synchronous loop can never time itself out, so a worker watches a shared heartbeat: when a
 * case has run past its hard limit, or the process's memory has grown past its cap during a
 * case, the worker writes the case (as published by {@link Watchdog.begin}) to the failures
 * folder and to stderr, then kills the process. The hang becomes a reported failure, not a
 * stuck run.
 */

/** Layout of the shared buffer: control words, then times and sizes, then the case text. */
const STATE = 0; // Int32: 0 idle, 1 running
const TEXT_LENGTH = 1; // Int32: bytes of case text
const START = 1; // Float64 index: case start (ms since epoch)
const RSS_BASE = 2; // Float64: RSS when the case began
const RSS_PEAK = 3; // Float64: highest RSS seen during the case
const HEADER_BYTES = 64;
const TEXT_BYTES = 1 << 20;

// Plain JavaScript: worker threads cannot load the TypeScript sources the tests run on.
const WORKER_SOURCE = `
const { workerData } = require("node:worker_threads");
const fs = require("node:fs");
const path = require("node:path");
const { buffer, hangMs, rssCapBytes, outDir, pollMs, summaryFile } = workerData;
const ints = new Int32Array(buffer, 0, 8);
const floats = new Float64Array(buffer, 0, 8);
const text = new Uint8Array(buffer, ${HEADER_BYTES});
function die(kind, detail) {
  let caseText = new TextDecoder().decode(text.slice(0, Atomics.load(ints, ${TEXT_LENGTH})));
  let record;
  try { record = JSON.parse(caseText); } catch { record = { caseText }; }
  record.kind = kind;
  record.signature = kind + ": killed by the watchdog";
  record.error = { name: kind, message: detail };
  const line = "\\n[fuzz watchdog] " + kind + " in " + record.target + " (seed " + record.seed + ", path " + record.path + "): " + detail;
  try {
    const dir = path.join(outDir, String(record.target || "unknown").replace(/[^A-Za-z0-9_.-]+/g, "_"));
    fs.mkdirSync(dir, { recursive: true });
    const file = path.join(dir, kind + "-" + record.seed + "-" + record.path + ".json");
    fs.writeFileSync(file, JSON.stringify(record, null, 2));
    fs.writeSync(2, line + "\\n  written to " + file + "\\n  replay: pnpm fuzz --replay " + file + "\\n");
    if (summaryFile) {
      const killed = { target: record.target, seed: record.seed, killed: true, path: record.path, signature: record.signature, file };
      fs.appendFileSync(summaryFile, JSON.stringify(killed) + "\\n");
    }
  } catch (e) {
    fs.writeSync(2, line + " (could not write the case: " + e + ")\\n" + caseText + "\\n");
  }
  process.kill(process.pid, "SIGKILL");
}
setInterval(() => {
  const rss = process.memoryUsage.rss();
  if (Atomics.load(ints, ${STATE}) !== 1) return;
  if (rss > floats[${RSS_PEAK}]) floats[${RSS_PEAK}] = rss;
  const elapsed = Date.now() - floats[${START}];
  if (elapsed > hangMs) die("hang", "the case ran " + elapsed + " ms (hard limit " + hangMs + " ms) without returning to the event loop");
  const growth = rss - floats[${RSS_BASE}];
  if (growth > rssCapBytes) die("memory", "RSS grew by " + Math.round(growth / 2 ** 20) + " MiB during the case (cap " + Math.round(rssCapBytes / 2 ** 20) + " MiB)");
}, pollMs);
`;

/** Options of the watchdog. */
export interface WatchdogOptions {
  /** A case running longer than this is killed with its process (ms). */
  hangMs: number;
  /** A case growing RSS beyond this is killed with its process (bytes). */
  rssCapBytes: number;
  /** Where the killed case is written. */
  outDir: string;
  /** How often the worker looks (ms). */
  pollMs?: number;
  /** Where `pnpm fuzz` collects summaries: a kill is noted there too. */
  summaryFile?: string;
}

/** The main thread's side of the watchdog. */
export class Watchdog {
  private readonly ints: Int32Array;
  private readonly floats: Float64Array;
  private readonly text: Uint8Array;
  private readonly worker: Worker;
  private readonly encoder = new TextEncoder();

  constructor(options: WatchdogOptions) {
    const buffer = new SharedArrayBuffer(HEADER_BYTES + TEXT_BYTES);
    this.ints = new Int32Array(buffer, 0, 8);
    this.floats = new Float64Array(buffer, 0, 8);
    this.text = new Uint8Array(buffer, HEADER_BYTES);
    this.worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { buffer, pollMs: 50, ...options },
    });
    this.worker.unref();
  }

  /** Publishes the case about to run (a JSON text, cut to 1 MiB) and starts its clock. */
  begin(caseJson: string): void {
    const { written } = this.encoder.encodeInto(caseJson, this.text);
    Atomics.store(this.ints, TEXT_LENGTH, written);
    const rss = process.memoryUsage.rss();
    this.floats[RSS_BASE] = rss;
    this.floats[RSS_PEAK] = rss;
    this.floats[START] = Date.now();
    Atomics.store(this.ints, STATE, 1);
  }

  /** Stops the clock; returns the highest RSS the worker saw during the case. */
  end(): number {
    Atomics.store(this.ints, STATE, 0);
    return Math.max(this.floats[RSS_PEAK], process.memoryUsage.rss());
  }

  /** RSS when the last case began. */
  get baseline(): number {
    return this.floats[RSS_BASE];
  }

  /** Stops the worker. */
  async stop(): Promise<void> {
    await this.worker.terminate();
  }
}
