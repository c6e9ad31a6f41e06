// One full read in a fresh process, for its peak resident set: `node rss-read.mjs <ours|zarrita>
// <dir> <workers> [warm]` prints {peakRssMiB, outputMiB}, the peak RSS above the RSS just before
// the read (the array already opened). With `warm` (ours only), a few chunks are read before that
// RSS is taken, so the one-time start of the decode pool's workers (an isolate and its codecs
// each) is left out. A fresh process, because in a long-running one the allocator keeps
// the pages of earlier runs and RSS deltas undercount. Linux only (/proc/self/status).
import { readFileSync } from "node:fs";
import { FsStore, openArray, slice } from "@z/zarr";
import FileSystemStore from "@zarrita/storage/fs";
import * as zarrita from "zarrita";
import { poolFor } from "./workers.mjs";

/**
 * This process's peak resident set in bytes: VmHWM from /proc (Linux), which starts afresh at
 * exec; `resourceUsage().maxRSS` does not (it keeps the parent's peak from before the exec).
 */
function peakRss() {
  const line = readFileSync("/proc/self/status", "utf8").match(/^VmHWM:\s+(\d+) kB/m);
  return line ? Number(line[1]) * 1024 : process.resourceUsage().maxRSS * 1024;
}

const [library, dir, workers, warm] = process.argv.slice(2);
const MiB = 1024 * 1024;
let read;
if (library === "ours") {
  const arr = await openArray(new FsStore(dir));
  const pool = poolFor(workers === "auto" || workers === undefined ? "auto" : Number(workers));
  read = () => arr.get(null, { workers: pool });
  if (warm === "warm") {
    // A few chunks, so that the pool has started its workers (a lone chunk may decode inline).
    const last = arr.shape.length - 1;
    const first = arr.shape.map((n, i) =>
      slice(0, Math.min(n, arr.chunks[i] * (i === last ? 8 : 1))),
    );
    await arr.get(first, { workers: pool });
  }
} else {
  if (warm === "warm") throw new Error("warm: only for ours (zarrita has no workers)");
  const arr = await zarrita.open(new FileSystemStore(dir), { kind: "array" });
  read = () => zarrita.get(arr);
}
const base = process.memoryUsage().rss;
const result = await read();
const peak = peakRss();
console.log(
  JSON.stringify({ peakRssMiB: (peak - base) / MiB, outputMiB: result.data.byteLength / MiB }),
);
process.exit(0);
