// The cost of logging: the same many-small-chunks read from memory with logging off (the
// default), with a no-op logger at debug (every store request, chunk decode and read builds
// its message), and the cost of one level check. Run after `pnpm build`:
//   node --expose-gc bench/logging-overhead.mjs [--reads N] [--rounds N]
// or on the sources: node --conditions=source --import ./packages/cli/test/support/register-ts.mjs bench/logging-overhead.mjs
// Run the same script in a checkout without @z/log to compare a build without any logging.
import { parseArgs } from "node:util";
import * as zarr from "@z/zarr";
import { collectGarbage } from "./lib/measure.mjs";

const { values } = parseArgs({
  options: { reads: { type: "string", default: "40" }, rounds: { type: "string", default: "9" } },
});
const reads = Number(values.reads);
const rounds = Number(values.rounds);
const hasLogging = typeof zarr.setLogLevel === "function";

// 1024 chunks of 1 KiB (int32, uncompressed) in memory: per-request and per-chunk costs dominate.
const store = new zarr.MemoryStore();
const shape = [512, 512];
const created = await zarr.createArray(store, {
  shape,
  chunks: [16, 16],
  dtype: "int32",
  codecs: [{ name: "bytes", configuration: { endian: "little" } }],
});
await created.set(null, { data: Int32Array.from({ length: 512 * 512 }, (_, i) => i), shape });

/** Median milliseconds per read over `rounds` rounds of `reads` reads of the whole array. */
async function timeReads() {
  const array = await zarr.openArray(store);
  for (let i = 0; i < 5; i++) await array.get();
  const perRead = [];
  for (let round = 0; round < rounds; round++) {
    collectGarbage();
    const start = performance.now();
    for (let i = 0; i < reads; i++) await array.get();
    perRead.push((performance.now() - start) / reads);
  }
  perRead.sort((a, b) => a - b);
  return perRead[Math.floor(perRead.length / 2)];
}

const rows = [];
const off = await timeReads();
rows.push([hasLogging ? "logging off (default)" : "no logging in this build", off]);
if (hasLogging) {
  let messages = 0;
  const count = () => {
    messages++;
  };
  zarr.setLogger({ debug: count, info: count, warn: count });
  zarr.setLogLevel("*", "debug");
  const on = await timeReads();
  rows.push(["all namespaces at debug, no-op logger", on]);
  zarr.setLogLevel("*", "off");
  zarr.setLogger(undefined);
  const log = zarr.getLogger("codec");
  const checks = 10_000_000;
  let enabled = 0;
  const start = performance.now();
  for (let i = 0; i < checks; i++) if (log.enabled("debug")) enabled++;
  const nsPerCheck = ((performance.now() - start) * 1e6) / checks;
  console.log(`one level check when off: ${nsPerCheck.toFixed(1)} ns (${enabled} enabled)`);
  console.log(`messages per read at debug: ${Math.round(messages / (reads * rounds + 5))}`);
}
for (const [label, ms] of rows)
  console.log(`${label.padEnd(40)} ${ms.toFixed(2)} ms per read of 1024 chunks`);
