// The cost of logging when it is off: the same read of 1024 small chunks from memory, through
// this checkout's @z/zarr with logging off (the default) and, in the same process and in
// alternating rounds, through a baseline build without the logging code; then at debug with
// a no-op logger (every store request, chunk decode and read builds its message), and the
// cost of one level check.
//   pnpm build && node --expose-gc bench/logging-overhead.mjs [--baseline <entry>] [--reads N] [--rounds N]
// On the sources: node --expose-gc --conditions=source --import ./packages/cli/test/support/register-ts.mjs bench/logging-overhead.mjs
// <entry> is another checkout's @z/zarr entry (packages/zarr/dist/node.js, or src/node.ts on sources).
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import * as zarr from "@z/zarr";
import { collectGarbage } from "./lib/measure.mjs";

const { values } = parseArgs({
  options: {
    baseline: { type: "string" },
    reads: { type: "string", default: "20" },
    rounds: { type: "string", default: "15" },
  },
});
const reads = Number(values.reads);
const rounds = Number(values.rounds);

const shape = [512, 512];
const volume = Int32Array.from({ length: 512 * 512 }, (_, i) => i);

/** An array of 1024 chunks of 1 KiB (int32, uncompressed) in memory, opened for reading. */
async function sampleArray(lib) {
  const store = new lib.MemoryStore();
  const created = await lib.createArray(store, {
    shape,
    chunks: [16, 16],
    dtype: "int32",
    codecs: [{ name: "bytes", configuration: { endian: "little" } }],
  });
  await created.set(null, { data: volume, shape });
  const array = await lib.openArray(store);
  for (let i = 0; i < 5; i++) await array.get();
  return array;
}

/** Milliseconds per read over one round of `reads` reads of the whole array. */
async function round(array) {
  collectGarbage();
  const start = performance.now();
  for (let i = 0; i < reads; i++) await array.get();
  return (performance.now() - start) / reads;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const ours = await sampleArray(zarr);
const baseline = values.baseline
  ? await sampleArray(await import(pathToFileURL(resolve(values.baseline)).href))
  : undefined;
const off = [];
const base = [];
for (let r = 0; r < rounds; r++) {
  // Alternate which goes first, so drift in the machine's load hits both alike.
  if (baseline && r % 2 === 1) base.push(await round(baseline));
  off.push(await round(ours));
  if (baseline && r % 2 === 0) base.push(await round(baseline));
}

let messages = 0;
const count = () => {
  messages++;
};
zarr.setLogger({ debug: count, info: count, warn: count });
zarr.setLogLevel("*", "debug");
const debugArray = await zarr.openArray(ours.store);
const debug = [];
for (let r = 0; r < rounds; r++) debug.push(await round(debugArray));
zarr.setLogLevel("*", undefined);
zarr.setLogger(undefined);

const log = zarr.getLogger("codec");
const checks = 10_000_000;
let enabled = 0;
const start = performance.now();
for (let i = 0; i < checks; i++) if (log.enabled("debug")) enabled++;
const nsPerCheck = ((performance.now() - start) * 1e6) / checks;

const line = (label, ms) => console.log(`${label.padEnd(44)} ${ms.toFixed(2)} ms per read`);
console.log(
  `read of 1024 chunks of 1 KiB from memory, median of ${rounds} rounds of ${reads} reads`,
);
if (baseline) line("baseline build without logging", median(base));
line("logging off (default)", median(off));
line("all namespaces at debug, no-op logger", median(debug));
if (baseline) {
  const ratios = off.map((t, i) => t / base[i]);
  console.log(
    `off / baseline, per round: median ${median(ratios).toFixed(3)}, range ${Math.min(...ratios).toFixed(3)}-${Math.max(...ratios).toFixed(3)}`,
  );
}
console.log(
  `one level check when off: ${nsPerCheck.toFixed(1)} ns (${enabled} enabled); ` +
    `checks per read: ${1024 + 1}; messages per read at debug: ${Math.round(messages / (rounds * reads))}`,
);
