import { execFileSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { builtPackagesOrWarn, tempDir } from "@z/test-utils";
import { describe, expect, it } from "vitest";

const here = path.dirname(fileURLToPath(import.meta.url));
const built = builtPackagesOrWarn("pyramid memory", ["ome", "array", "indexing", "store-fs"]);

interface Measure {
  side: number;
  sourceBytes: number;
  levels: number[][];
  peakBeforeKiB: number;
  peakAfterKiB: number;
}

/**
 * Runs the built writer in a child process over a `side × side` uint16 source (uncompressed,
 * so that the codecs' worker threads do not blur the figure) and returns its peak resident
 * memory (VmHWM) before and after the pyramid.
 */
function measure(side: number): Measure {
  const { dir, remove } = tempDir("z-ome-memory-");
  try {
    const out = execFileSync(
      process.execPath,
      ["--expose-gc", path.join(here, "memory/pyramid-child.mjs"), dir, String(side), "512", "raw"],
      { encoding: "utf8" },
    );
    return JSON.parse(out) as Measure;
  } finally {
    remove();
  }
}

describe.skipIf(!built)("writePyramid's memory", () => {
  it("stays bounded: a 4x larger source adds almost nothing to the peak", () => {
    const small = measure(4096); // 32 MiB source
    const large = measure(8192); // 128 MiB source
    expect(large.levels).toEqual([
      [8192, 8192],
      [4096, 4096],
      [2048, 2048],
      [1024, 1024],
      [512, 512],
    ]);
    const MiB = 1024;
    const pyramidPeak = large.peakAfterKiB - large.peakBeforeKiB;
    console.info(
      `pyramid peak over the process's: 4096² ${(small.peakAfterKiB - small.peakBeforeKiB) / MiB} MiB, 8192² ${pyramidPeak / MiB} MiB; whole-process peaks ${small.peakAfterKiB / MiB} and ${large.peakAfterKiB / MiB} MiB`,
    );
    // The writer holds a few blocks (4 chunks at a time, each with the 2×2 chunks it reduces),
    // not the image: far less than the 128 MiB source...
    expect(pyramidPeak).toBeLessThan(64 * MiB);
    // ...and the same whatever the image's size: 96 MiB more source, at most 16 MiB more peak.
    expect(large.peakAfterKiB - small.peakAfterKiB).toBeLessThan(16 * MiB);
  }, 180_000);
});
