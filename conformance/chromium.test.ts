// Fixture arrays read in Chromium by the umbrella bundled from the built packages, over HTTP
// from a server on 127.0.0.1: a sample holding every data-type family and codec of the fixtures
// (but the two codecs pages leave out), with no pool (the browser's default: inline), a pool of
// Web Workers with its defaults, and every chunk forced to a worker. See README.md here.
import path from "node:path";
import { fileURLToPath } from "node:url";
import {
  builtPackagesOrWarn,
  chromiumAvailableOrWarn,
  fixturesDir,
  haveFixtures,
  launchChromium,
  NOT_BUNDLED_IN_PAGES,
  repositoryRoot,
  tempDir,
} from "@z/test-utils";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStaticServer } from "../examples/viewer/static-server.mjs";
import { compareWithReferences, describeError, type ReadLine } from "./lib/outcome.mjs";
import {
  conformanceCacheRoot,
  type Plan,
  type PlannedArray,
  preparePlan,
} from "./lib/references.mjs";
import { countRun, describeGroup, groupFailures, type RunCounts } from "./lib/report.mjs";
import type { WayRun } from "./lib/run-ways.mjs";
import { coveringSample, featureKeys } from "./lib/sample.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const suite = "conformance in Chromium";
const ready =
  haveFixtures(suite) &&
  builtPackagesOrWarn(suite, ["zarr", "codecs", "store-http", "store-zip"]) &&
  chromiumAvailableOrWarn(suite);
const cacheRoot = conformanceCacheRoot(repositoryRoot);
const say = (line: string) => console.log(`[conformance, Chromium] ${line}`);

/** Codecs whose WebAssembly loaders pages leave out (NOT_BUNDLED_IN_PAGES): Node covers them. */
const NOT_IN_PAGES = ["numcodecs.bz2", "numcodecs.lzma"];
const MODES = ["inline", "pool", "forced"] as const;
const MODE_LABELS = {
  inline: "no pool (browser default, inline)",
  pool: "Web Worker pool, its defaults",
  forced: "Web Worker pool, every chunk",
};

/** Whether a page can read an array: its codecs are all bundled in pages. */
const inPages = (e: PlannedArray) => !e.features.codecs.some((c) => NOT_IN_PAGES.includes(c));

/** Bundles the page (and the worker module the pool starts) from dist into `outDir`. */
async function buildPage(outDir: string): Promise<void> {
  const { build } = await import("vite");
  await build({
    configFile: false,
    logLevel: "error",
    root: path.join(here, "browser"),
    resolve: { conditions: ["browser", "import", "module", "default"] },
    worker: { format: "es", rollupOptions: { external: [...NOT_BUNDLED_IN_PAGES] } },
    build: {
      outDir,
      emptyOutDir: true,
      target: "es2022",
      minify: false,
      rollupOptions: { external: [...NOT_BUNDLED_IN_PAGES] },
    },
  });
}

/** The URL of an array's store on the test server, and the zip file name for zips. */
function addressOf(entry: PlannedArray, plan: Plan, base: string) {
  const inside = (root: string, file: string) => {
    const rel = path.relative(root, file);
    return rel.startsWith("..") ? undefined : rel.split(path.sep).map(encodeURIComponent).join("/");
  };
  const mount = (file: string) => {
    const f = inside(fixturesDir!, file);
    if (f !== undefined) return `${base}fixtures/${f}`;
    return `${base}cache/${inside(plan.dir, file)}`;
  };
  if (entry.container === "zip")
    return { url: `${mount(path.dirname(entry.location))}/`, zip: path.basename(entry.location) };
  return { url: `${mount(entry.location)}/` };
}

describe.skipIf(!ready)(suite, () => {
  let plan: Plan;
  let sample: number[] = [];
  const runs: { mode: (typeof MODES)[number]; run: WayRun; counts: RunCounts }[] = [];
  let browser: Browser | undefined;
  let server: { url: string; close: () => Promise<void> } | undefined;
  const page = tempDir("z-conformance-page-");

  beforeAll(async () => {
    const started = Date.now();
    plan = await preparePlan({ fixturesDir: fixturesDir!, cacheRoot, log: say });
    sample = coveringSample(plan, inPages);
    await buildPage(page.dir);
    server = await startStaticServer({
      mounts: { "/": page.dir, "/fixtures/": fixturesDir!, "/cache/": plan.dir },
    });
    browser = await launchChromium();
    const tab = await browser.newPage();
    const errors: string[] = [];
    tab.on("pageerror", (e) => errors.push(e.message));
    await tab.goto(server.url);
    await tab.waitForFunction(() => "__read" in globalThis, null, { timeout: 60_000 });
    const arrays = sample.map((i) => ({
      i,
      path: plan.arrays[i].path,
      ...addressOf(plan.arrays[i], plan, server!.url),
    }));
    for (const mode of MODES) {
      const t = Date.now();
      const out = (await tab.evaluate(
        (arg) =>
          (globalThis as unknown as { __read: (a: unknown) => Promise<unknown> }).__read(arg),
        { mode, arrays },
      )) as {
        results: { i: number; shape?: number[]; values?: unknown[]; error?: ReadLine["error"] }[];
        stats?: WayRun["stats"];
      };
      const lines = new Map<number, ReadLine>();
      for (const r of out.results) {
        const entry = plan.arrays[r.i];
        const line: ReadLine = { i: r.i, id: entry.id, status: "read" };
        if (r.error) {
          line.status = "error";
          const error = Object.assign(new Error(r.error.message), { name: r.error.name });
          if (r.error.typed) Object.assign(error, { [Symbol.for("@z/error")]: true });
          line.error = describeError(error);
        } else if (entry.refs.length > 0) {
          const ours = { shape: r.shape!, values: r.values! };
          const { matched, differences } = compareWithReferences(entry, ours);
          line.status = matched.length ? "equal" : "differs";
          line.matched = matched;
          if (differences.length) line.differences = differences;
        }
        lines.set(r.i, line);
      }
      const run: WayRun = {
        way: "browser",
        mode,
        kind: "Chromium",
        lines,
        stats: out.stats,
        processes: 1,
        crashes: [],
        stderr: [],
        seconds: (Date.now() - t) / 1000,
      };
      runs.push({ mode, run, counts: countRun(plan, run) });
    }
    expect(errors, "page errors").toEqual([]);

    // The report: counts per mode, what the sample covers, failures by cause.
    const covered = new Set(sample.flatMap((i) => featureKeys(plan.arrays[i])));
    const everything = new Set(plan.arrays.flatMap((a) => featureKeys(a)));
    const left = [...everything].filter((k) => !covered.has(k));
    say(
      `${sample.length} arrays read over HTTP (${server.url}), covering ${covered.size} features`,
    );
    say(
      `features not in the sample: ${left.join(", ") || "none"} (pages leave out ${NOT_IN_PAGES.join(", ")})`,
    );
    say(`${"mode".padEnd(36)} arrays  equal   read refused failed  workers/inline  s`);
    for (const { mode, run, counts } of runs) {
      const c = counts.counts;
      const pool = run.stats ? `${run.stats.dispatched}/${run.stats.inline}` : "-";
      say(
        `${MODE_LABELS[mode].padEnd(36)} ${String(c.arrays).padStart(6)} ${String(c.equal).padStart(6)} ${String(c.read).padStart(6)} ${String(c.refused).padStart(7)} ${String(c.failed).padStart(6)} ${pool.padStart(15)} ${String(Math.round(run.seconds)).padStart(3)}`,
      );
    }
    const groups = groupFailures(
      runs.map((r) => ({ label: MODE_LABELS[r.mode], failures: r.counts.failures })),
    );
    if (groups.length) {
      say(`FAILURES, by cause (${groups.length}):`);
      for (const g of groups) for (const line of describeGroup(g)) say(`  ${line}`);
    } else say("no failures");
    say(`took ${Math.round((Date.now() - started) / 1000)} s`);
  }, 10 * 60_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    page.remove();
  });

  for (const mode of MODES)
    it(`${MODE_LABELS[mode]}: every sampled array a reference reads is read equal`, () => {
      const r = runs.find((x) => x.mode === mode);
      expect(r?.counts.counts.arrays).toBe(sample.length);
      expect(r!.counts.failures.map((f) => `${f.id}: ${f.cause}: ${f.reason}`)).toEqual([]);
    });

  it("the sample holds every data-type family and codec the page can read", () => {
    const readable = plan.arrays.filter(inPages);
    const families = new Set(readable.map((a) => `dtype ${a.features.dtype}`));
    const codecs = new Set(readable.flatMap((a) => a.features.codecs));
    const covered = new Set(sample.flatMap((i) => featureKeys(plan.arrays[i])));
    for (const f of families) expect(covered.has(f), f).toBe(true);
    for (const c of codecs) expect(covered.has(`codec ${c}`), c).toBe(true);
  });

  it("the forced pool decoded chunks in Web Workers", () => {
    const forced = runs.find((x) => x.mode === "forced");
    expect(forced?.run.stats?.dispatched ?? 0).toBeGreaterThan(0);
  });
});
