// Many writers, one array: N processes each write a band of rows of one sharded array in an
// object store, then this process reads the whole array back and checks every element.
//
//   node examples/parallel-write.mjs <location> [--processes N] [--unaligned]
//   node examples/parallel-write.mjs <location> --check        (only the check)
//
// <location> is s3://bucket/path.zarr (or gs://, or a local folder), configured by the
// environment: AWS_ENDPOINT_URL, AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_REGION. Run
// `pnpm build` first (the example imports the built packages).
//
// Aligned (the default): every band is a whole number of shards, so no two processes ever
// write the same object and no coordination is needed. --unaligned: band edges fall inside
// shards (and inside chunks), so neighbouring processes update the same shard objects; the
// updates are read-modify-writes with If-Match / If-None-Match: * (the store's conditional
// writes), retried on conflict, and none is lost, as long as the service honours them.
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { createArray, openArray, slice } from "@z/zarr";

const SHARD = [16, 32];
const CHUNK = [4, 8];
const COLUMNS = 64;

/** The value every element must end up with: distinct, never the fill value 0. */
const valueAt = (row, column) => row * COLUMNS + column + 1;

/** Band edges: aligned on shard rows, or shifted by 3 rows so they fall inside shards and chunks. */
function bands(processes, aligned) {
  const rows = SHARD[0] * processes;
  const edges = Array.from({ length: processes + 1 }, (_, i) =>
    aligned || i === 0 || i === processes ? i * SHARD[0] : i * SHARD[0] - 3,
  );
  return { rows, bands: edges.slice(0, -1).map((start, i) => [start, edges[i + 1]]) };
}

/** A worker: writes its rows one at a time (many small updates, to meet the neighbours'). */
async function work(location, start, stop) {
  const array = await openArray(location, { dtype: "int32" });
  for (let row = start; row < stop; row++) {
    const data = Int32Array.from({ length: COLUMNS }, (_, column) => valueAt(row, column));
    await array.set([row, null], { data, shape: [COLUMNS] });
  }
}

function runWorker(script, location, start, stop) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, location, "--worker", `${start}:${stop}`], {
      stdio: ["ignore", "inherit", "inherit"],
    });
    child.on("error", reject);
    child.on("exit", (code) =>
      code === 0
        ? resolve()
        : reject(new Error(`the writer of rows ${start}:${stop} exited with ${code}`)),
    );
  });
}

/** Reads the whole array and counts the elements that are not what their writer wrote. */
async function check(location) {
  const array = await openArray(location, { dtype: "int32" });
  const [rows, columns] = array.shape;
  const { data } = await array.get([slice(0, rows), null]);
  let wrong = 0;
  for (let i = 0; i < rows * columns; i++)
    if (data[i] !== valueAt(Math.floor(i / columns), i % columns)) wrong++;
  return { rows, columns, wrong };
}

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    processes: { type: "string", default: "4" },
    unaligned: { type: "boolean", default: false },
    check: { type: "boolean", default: false },
    worker: { type: "string" },
  },
});
const location = positionals[0];
if (!location) {
  console.error("usage: node examples/parallel-write.mjs <location> [--processes N] [--unaligned]");
  process.exit(2);
}

if (values.worker) {
  const [start, stop] = values.worker.split(":").map(Number);
  await work(location, start, stop);
} else if (values.check) {
  const result = await check(location);
  console.log(JSON.stringify({ check: true, ...result, ok: result.wrong === 0 }));
  process.exitCode = result.wrong === 0 ? 0 : 1;
} else {
  const processes = Number(values.processes);
  const aligned = !values.unaligned;
  const plan = bands(processes, aligned);
  // One process creates the array; the writers only open it.
  await createArray(location, {
    shape: [plan.rows, COLUMNS],
    chunks: CHUNK,
    shards: SHARD,
    dtype: "int32",
    fillValue: 0,
    overwrite: true,
  });
  const script = fileURLToPath(import.meta.url);
  await Promise.all(plan.bands.map(([start, stop]) => runWorker(script, location, start, stop)));
  const result = await check(location);
  console.log(
    JSON.stringify({ processes, aligned, bands: plan.bands, ...result, ok: result.wrong === 0 }),
  );
  process.exitCode = result.wrong === 0 ? 0 : 1;
}
