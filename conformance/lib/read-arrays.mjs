// One fresh Node process reading the plan's arrays one way, through the built packages only:
//   node [--import pool-forced.mjs | pool-off.mjs] read-arrays.mjs <plan.json> <way> <from> <to> <results.ndjson>
// ways: "umbrella" (openArray of @z/zarr), "cli" (the main() that bin.js calls, @z/cli),
// "minimal" (openArray of @z/array with an FsStore of @z/store-fs, nothing else imported).
// Appends one JSON line per array (so a crash loses only the array it happened on), then a
// line with the decode pool's counts.
import { appendFileSync, readFileSync } from "node:fs";
import { cliResult, compareWithReferences, describeError, valuesOf } from "./outcome.mjs";

const [planFile, way, fromText, toText, resultsFile] = process.argv.slice(2);
const plan = JSON.parse(readFileSync(planFile, "utf8"));
const from = Number(fromText);
const to = Math.min(Number(toText), plan.arrays.length);
/** Longer than any fixture takes (the largest read in well under a second): a hang, not a slow read. */
const TIMEOUT_MS = 60_000;

const emit = (line) => appendFileSync(resultsFile, `${JSON.stringify(line)}\n`);

const readers = {
  async umbrella() {
    const { openArray } = await import("@z/zarr");
    return async (entry) => {
      const array = await openArray(entry.location, entry.path ? { path: entry.path } : {});
      const result = await array.get();
      return { shape: result.shape, ...valuesOf(array.dataType, result) };
    };
  },
  async minimal() {
    const { openArray } = await import("@z/array");
    const { FsStore } = await import("@z/store-fs");
    return async (entry) => {
      if (entry.container === "zip")
        return { skipped: "zip files need @z/store-zip, not in this assembly" };
      const store = new FsStore(entry.location, { readOnly: true });
      const array = await openArray(store, entry.path ? { path: entry.path } : {});
      const result = await array.get();
      return { shape: result.shape, ...valuesOf(array.dataType, result) };
    };
  },
  async cli() {
    const { bufferedOutput, main } = await import("@z/cli");
    return async (entry) => {
      const output = bufferedOutput();
      const args = ["get", entry.location, ...(entry.path ? ["--path", entry.path] : []), "--json"];
      const code = await main(args, output);
      return cliResult(code, output.stdout, output.stderr);
    };
  },
};

function withTimeout(promise) {
  let timer;
  return Promise.race([
    promise,
    new Promise((_, reject) => {
      timer = setTimeout(
        () =>
          reject(
            Object.assign(new Error(`no result after ${TIMEOUT_MS / 1000} s`), { name: "Hang" }),
          ),
        TIMEOUT_MS,
      );
    }),
  ]).finally(() => clearTimeout(timer));
}

const read = await readers[way]();
for (let i = from; i < to; i++) {
  const entry = plan.arrays[i];
  const started = performance.now();
  const line = { i, id: entry.id };
  try {
    const ours = await withTimeout(read(entry));
    if (ours.skipped) {
      line.status = "not applicable";
      line.detail = ours.skipped;
    } else {
      line.direct = ours.direct;
      if (ours.contract?.length) line.contract = ours.contract;
      if (entry.refs.length === 0) line.status = "read";
      else {
        const { matched, differences } = compareWithReferences(entry, ours);
        line.status = matched.length > 0 ? "equal" : "differs";
        line.matched = matched;
        if (differences.length) line.differences = differences;
      }
    }
  } catch (error) {
    line.status = "error";
    line.error = describeError(error);
  }
  line.ms = Math.round(performance.now() - started);
  emit(line);
}

/** The decode pool's counts: the forced pool's, or the shared pool Node reads start by default. */
async function poolStats() {
  const forced = globalThis.__zarrConformancePool;
  if (forced) return { pool: "forced (inlineBelow 0)", ...forced.stats() };
  if (globalThis.__zarrConformanceNoPool) return { pool: "none (setDefaultDecodePool(false))" };
  const { implicitDecodePool } = await import("@z/codecs/internal");
  // The codecs named make it hand back the shared pool (created, not started, if no read did).
  const shared = implicitDecodePool([{ name: "numcodecs.blosc" }]);
  return shared && typeof shared.stats === "function"
    ? { pool: "shared (default)", ...shared.stats() }
    : { pool: "none started by default" };
}
emit({ stats: await poolStats() });
process.exit(0);
