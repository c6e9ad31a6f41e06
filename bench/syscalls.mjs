// System calls per chunk write and per chunk read of FsStore, through the built packages:
// the script runs itself under `strace -f`, marks the start of each phase with a failing
// `access("/__z_mark/<phase>")`, and divides the file and descriptor calls made in each phase
// by the operations in it. Needs strace (`apt-get install -y strace`) and a build
// (`npx turbo run build --filter=@z/array... --filter=@z/store-fs...`).
//
//   node bench/syscalls.mjs [--chunks N] [--fsync] [--keep-trace FILE]

import { spawnSync } from "node:child_process";
import { accessSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";

const MARK = "/__z_mark/";
/** File and descriptor calls that a store makes; the event loop's own (epoll, eventfd) are not. */
const CALLS = [
  "open",
  "openat",
  "close",
  "read",
  "pread64",
  "readv",
  "preadv",
  "write",
  "pwrite64",
  "writev",
  "pwritev",
  "fstat",
  "newfstatat",
  "statx",
  "stat",
  "lstat",
  "rename",
  "renameat",
  "renameat2",
  "link",
  "linkat",
  "unlink",
  "unlinkat",
  "mkdir",
  "mkdirat",
  "rmdir",
  "readlink",
  "readlinkat",
  "fsync",
  "fdatasync",
  "getdents64",
  "access",
  "faccessat",
  "faccessat2",
];

function option(name, fallback) {
  const at = process.argv.indexOf(name);
  return at < 0 ? fallback : process.argv[at + 1];
}

const chunks = Number(option("--chunks", "64"));
const fsync = process.argv.includes("--fsync");

if (process.env.Z_SYSCALLS_CHILD === undefined) {
  const trace = option("--keep-trace", path.join(os.tmpdir(), `z-syscalls-${process.pid}.txt`));
  const run = spawnSync(
    "strace",
    [
      "-f",
      "-qq",
      "-e",
      `trace=${CALLS.join(",")}`,
      "-o",
      trace,
      process.execPath,
      fileURLToPath(import.meta.url),
      ...process.argv.slice(2),
    ],
    { stdio: "inherit", env: { ...process.env, Z_SYSCALLS_CHILD: "1" } },
  );
  if (run.error) throw new Error(`strace did not run (apt-get install -y strace): ${run.error}`);
  if (run.status !== 0) process.exit(run.status ?? 1);
  report(readFileSync(trace, "utf8"));
  if (!process.argv.includes("--keep-trace")) rmSync(trace, { force: true });
} else {
  await phases();
}

/** Counts each phase's calls per operation and prints a table. */
function report(text) {
  const lines = text.split("\n");
  // libuv's thread pool wakes the event loop through an eventfd (8-byte counters): its reads
  // and writes are not the store's calls, but each write ends an asynchronous step.
  const wakeFds = new Set();
  for (const line of lines) {
    const wake = /^\d+\s+(?:write|read)\((\d+), "(?:\\\d+){8}", (?:8|1024)\)/.exec(line);
    if (wake) wakeFds.add(wake[1]);
  }
  const phases = [];
  let current;
  for (const line of lines) {
    const mark = line.indexOf(`"${MARK}`);
    if (mark >= 0) {
      const [name, count] = line
        .slice(mark + MARK.length + 1, line.indexOf('"', mark + 1))
        .split("|");
      current =
        name === "end" ? undefined : { name, count: Number(count), calls: new Map(), wakes: 0 };
      if (current) phases.push(current);
      continue;
    }
    if (current === undefined || line.includes("resumed>")) continue;
    const call = /^\d+\s+([a-z0-9_]+)\((\d*)/.exec(line);
    if (call === null) continue;
    if ((call[1] === "write" || call[1] === "read") && wakeFds.has(call[2])) {
      if (call[1] === "write") current.wakes++;
      continue;
    }
    current.calls.set(call[1], (current.calls.get(call[1]) ?? 0) + 1);
  }
  console.log(
    `FsStore system calls per operation (${chunks} chunks, fsync ${fsync ? "on" : "off"})`,
  );
  console.log(`${"operation".padEnd(30)} calls steps  by call`);
  for (const current of phases) {
    const { name, count, calls } = current;
    const total = [...calls.values()].reduce((a, b) => a + b, 0);
    const detail = [...calls]
      .sort((a, b) => b[1] - a[1])
      .map(([call, n]) => `${call} ${round(n / count)}`)
      .join(", ");
    const steps = String(round(current.wakes / count)).padStart(5);
    console.log(
      `${name.padEnd(30)} ${String(round(total / count)).padStart(5)} ${steps}  ${detail}`,
    );
  }
}

function round(x) {
  return Math.round(x * 100) / 100;
}

/** Marks the start of a phase of `count` operations in the trace. */
function mark(name, count = 1) {
  try {
    accessSync(`${MARK}${name}|${count}`);
  } catch {}
}

async function phases() {
  const { createArray, openArray } = await import("@z/array");
  const { FsStore } = await import("@z/store-fs");
  const { slice } = await import("@z/indexing");
  const root = mkdtempSync(path.join(os.tmpdir(), "z-syscalls-"));
  try {
    const store = new FsStore(path.join(root, "raw"), { fsync });
    const value = new Uint8Array(16384).fill(7);
    const target = new Uint8Array(16384);
    const keys = Array.from({ length: chunks }, (_, i) => `a/c/0/${i}`);
    // A first write creates the folders; it is not what a chunk write costs.
    await store.set("a/c/0/first", value);

    mark("store.set, new key", chunks);
    for (const key of keys) await store.set(key, value);
    mark("store.set, existing key", chunks);
    for (const key of keys) await store.set(key, value);
    mark("store.get", chunks);
    for (const key of keys) await store.get(key);
    mark("store.getInto", chunks);
    for (const key of keys) await store.getInto(key, target);
    mark("store.get, missing key", chunks);
    for (const key of keys) await store.get(`${key}x`);
    const versions = [];
    mark("store.getVersioned", chunks);
    for (const key of keys) versions.push((await store.getVersioned(key)).version);
    mark("store.set, ifMatch", chunks);
    for (let i = 0; i < chunks; i++) await store.set(keys[i], value, { ifMatch: versions[i] });
    mark("store.delete", chunks);
    for (const key of keys) await store.delete(key);
    await store.set("a/c/0/first", value); // keeps the folder
    mark("store.delete, missing key", chunks);
    for (const key of keys) await store.delete(key);
    mark("end");

    // An array of `chunks` chunks of 16^3 float32 (16 KiB) in one row of the grid.
    const shape = [16, 16, 16 * chunks];
    const data = Float32Array.from({ length: 16 * 16 * 16 * chunks }, (_, i) => i);
    const arrays = new FsStore(path.join(root, "arrays"), { fsync });
    const arr = await createArray(arrays, { shape, chunks: [16, 16, 16], dtype: "float32" });
    await arr.set(null, { data, shape }); // creates the chunk folders
    mark("array: whole-chunk write", chunks);
    await arr.set(null, { data, shape });
    mark("end");
    const reader = await openArray(arrays);
    mark("array: chunk read", chunks);
    await reader.get();
    mark("array: partial write (RMW)", chunks);
    await arr.set([slice(1, 15), slice(1, 15), null], 1.5);
    mark("end");
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
