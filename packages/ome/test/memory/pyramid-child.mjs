// Writes a square uint16 source array chunk by chunk, then its pyramid, in a filesystem store,
// and prints the process's peak resident memory (VmHWM) before and after the pyramid. Run by
// ../memory.test.ts with the built packages.
import { readFileSync } from "node:fs";
import { createArray } from "@z/array";
import { slice } from "@z/indexing";
import { writePyramid } from "@z/ome";
import { FsStore } from "@z/store-fs";

function peakKiB() {
  const line = readFileSync("/proc/self/status", "utf8")
    .split("\n")
    .find((l) => l.startsWith("VmHWM:"));
  return Number(line.split(/\s+/)[1]);
}

const [dir, sideText, chunkText, compression] = process.argv.slice(2);
const compressed = compression !== "raw";
// Run with --expose-gc: collecting after every chunk keeps garbage the collector has not got
// round to out of the peak, so that the peak is what the writer holds, not when V8 collects.
const collect = globalThis.gc ?? (() => {});
const side = Number(sideText);
const chunk = Number(chunkText);
const store = new FsStore(dir);
const source = await createArray(store, {
  path: "source",
  shape: [side, side],
  chunks: [chunk, chunk],
  dtype: "uint16",
  zarrFormat: 2,
  compressors: compressed ? undefined : null,
});
const block = new Uint16Array(chunk * chunk);
for (let y = 0; y < side; y += chunk)
  for (let x = 0; x < side; x += chunk) {
    for (let i = 0; i < block.length; i++) block[i] = (x + y + i) & 0xffff;
    await source.set([slice(y, y + chunk), slice(x, x + chunk)], {
      data: block,
      shape: [chunk, chunk],
    });
    collect();
  }
const before = peakKiB();
const image = await writePyramid(source, store, {
  path: "image",
  downsample: "mean",
  onProgress: collect,
  ...(compressed ? {} : { arrayOptions: { compressors: null } }),
});
const after = peakKiB();
console.log(
  JSON.stringify({
    side,
    sourceBytes: side * side * 2,
    levels: image.levels.map((l) => l.shape),
    peakBeforeKiB: before,
    peakAfterKiB: after,
  }),
);
