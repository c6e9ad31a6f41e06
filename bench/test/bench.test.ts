import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseOptions } from "../lib/options.mjs";
import { probePython } from "../lib/python.mjs";
import { formatReport, summaryLine } from "../lib/report.mjs";
import { formatPythonReport, formatShardedReport } from "../lib/report-python.mjs";
import { benchSharded } from "../lib/sharded.mjs";
import { runSuite } from "../lib/suite.mjs";
import { benchVersusPython } from "../lib/versus-python.mjs";
import { assertSameArray, extractRegion, makeVolume } from "../lib/volume.mjs";

const dirs: string[] = [];
const pythonReady = (await probePython()).versions !== undefined;
if (!pythonReady)
  console.warn("[bench] zarr-python 2 comparison SKIPPED: /usr/bin/python3 with zarr 2 is missing");
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

describe("bench harness", () => {
  it("parses options, with arguments overriding the environment", () => {
    const o = parseOptions(["--size", "small", "--codecs=zstd,none"], {
      BENCH_SIZE: "tiny",
      BENCH_OPS: "read",
    });
    expect(o.size).toBe("small");
    expect(o.shape).toEqual([64, 256, 512]);
    expect(o.codecs).toEqual(["none", "zstd"]);
    expect(o.ops).toEqual(["read"]);
    expect(parseOptions([], {}).shape).toEqual([256, 512, 512]);
    expect(() => parseOptions(["--codecs", "lzma"], {})).toThrow(/unknown "lzma"/);
    expect(() => parseOptions(["--size", "huge"], {})).toThrow(/--size/);
    expect(parseOptions([], {}).workers).toBe("auto");
    expect(parseOptions(["--workers", "0"], {}).workers).toBe(0);
    expect(parseOptions(["--workers", "auto"], { BENCH_WORKERS: "1" }).workers).toBe("auto");
    expect(parseOptions(["--workers", "2"], { BENCH_WORKERS: "1" }).workers).toBe(2);
    expect(parseOptions([], { BENCH_WORKERS: "1" }).workers).toBe(1);
    expect(() => parseOptions(["--workers", "-1"], {})).toThrow(/--workers/);
  });

  it("generates the same volume for the same seed, and checks results byte for byte", () => {
    const a = makeVolume([4, 8, 16], 3);
    expect(makeVolume([4, 8, 16], 3).data).toEqual(a.data);
    expect(makeVolume([4, 8, 16], 4).data).not.toEqual(a.data);
    expect(() => assertSameArray(a, a, "same")).not.toThrow();
    const wrong = { ...a, data: a.data.slice() };
    wrong.data[100] += 1;
    expect(() => assertSameArray(wrong, a, "perturbed")).toThrow(
      /perturbed: wrong result: element 100/,
    );
    expect(() => assertSameArray({ ...a, shape: [8, 4, 16] }, a, "reshaped")).toThrow(/shape/);
    const region = extractRegion(a, [1, 2, 3], [2, 3, 4]);
    expect(region.data[0]).toBe(a.data[1 * 128 + 2 * 16 + 3]);
    expect(region.data[23]).toBe(a.data[2 * 128 + 4 * 16 + 6]);
  });

  it("runs every operation for both libraries on a tiny volume with verified results", async () => {
    const dataDir = await mkdtemp(join(tmpdir(), "z-bench-test-"));
    dirs.push(dataDir);
    const options = parseOptions(
      ["--size", "tiny", "--codecs", "blosc", "--repeats", "1", "--chunk-reads", "4"],
      {},
    );
    const lines: string[] = [];
    const report = await runSuite(options, { dataDir, log: (line: string) => lines.push(line) });

    expect(report.config.volumeMiB).toBe(4);
    expect(report.results.map((r) => r.op)).toEqual(["write", "read", "chunk"]);
    for (const result of report.results) {
      for (const lib of [result.ours!, result.zarrita!]) {
        expect(lib.mibPerSec).toBeGreaterThan(0);
        expect(Number.isFinite(lib.mibPerSec)).toBe(true);
        expect(lib.runs).toHaveLength(1);
        expect(lib.peakMiB).toBeGreaterThanOrEqual(0);
      }
    }
    // A full read holds at least its 4 MiB result when the run ends.
    const read = report.results[1];
    expect(read.ours!.peakMiB).toBeGreaterThanOrEqual(4);
    expect(read.zarrita!.peakMiB).toBeGreaterThanOrEqual(4);
    // Byte-shuffled blosc compresses this volume (zarrita's unshuffled chunks do not: see notes).
    expect(report.results[0].ours!.storedMiB).toBeLessThan(3.5);
    expect(report.results[2].ours!.chunksPerSec).toBeGreaterThan(0);
    expect(lines.some((line) => line.includes("blosc: read 1/1 (zarrita)"))).toBe(true);
    // Stores are cleaned up as the suite goes.
    expect(await readdir(dataDir)).toEqual([]);

    const text = formatReport(report);
    expect(text).toMatch(/\| blosc \|/);
    expect(text).toContain("Full write");
    expect(text).toContain("Single-chunk reads");
    expect(text).toContain(summaryLine(report.results));
  });
});

describe.skipIf(!pythonReady)("zarr-python 2 comparison and sharded read", () => {
  it("runs every operation of the three libraries on a tiny volume with verified results", async () => {
    const root = await mkdtemp(join(tmpdir(), "z-bench-python-"));
    dirs.push(root);
    const options = parseOptions(["--size", "tiny", "--repeats", "1", "--chunk-reads", "2"], {});
    const volume = makeVolume(options.shape, 1);
    const volumeFile = join(root, "volume.f32");
    await writeFile(volumeFile, new Uint8Array(volume.data.buffer));
    const settings = { chunks: options.chunks, fsync: false };
    const results = await benchVersusPython(
      "gzip",
      volume,
      volumeFile,
      join(root, "gzip"),
      options,
      settings,
      () => {},
    );
    expect(results.map((r) => r.op)).toEqual([
      "write",
      "read",
      "read-into",
      "chunk",
      "slab",
      "rss",
    ]);
    for (const r of results.slice(0, 5)) {
      if (r.op === "rss") throw new Error("rss comes last");
      expect(r.ours.mibPerSec).toBeGreaterThan(0);
      expect(r.python.mibPerSec).toBeGreaterThan(0);
      if (r.op !== "write" && r.op !== "read-into") expect(r.zarrita?.mibPerSec).toBeGreaterThan(0);
    }
    const rss = results[5];
    if (rss.op !== "rss") throw new Error("the last result is the peak RSS");
    for (const lib of ["ours", "oursWarm", "zarrita", "python"] as const)
      expect(rss[lib].outputMiB).toBe(4);
    const text = formatPythonReport({
      results,
      versions: { zarr: "2", numcodecs: "0" },
      workers: 0,
    });
    expect(text).toMatch(/\| gzip +\|/);
    expect(text).toContain("ours/zarr-python 2");
    expect(text).toMatch(/\| ours, pool started \|/);

    const sharded = await benchSharded(volume, join(root, "sharded"), options, settings, () => {});
    expect(sharded.ours.mibPerSec).toBeGreaterThan(0);
    expect(sharded.zarrita.mibPerSec).toBeGreaterThan(0);
    expect(formatShardedReport(sharded)).toContain("Sharded full read");
  });
});
