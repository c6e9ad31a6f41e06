// The browser bench (op `browser`): the large case's arrays (zstd in 256³ chunks, and sharded)
// served over HTTP from 127.0.0.1 and read whole in headless Chromium by us, decoding in a pool of
// Web Workers, and by zarrita (FetchStore), alternating. The page (browser/page.js) is bundled
// with Vite as an app would be (the codec worker as an ES module worker) and checks every result
// against the generating formula. The server is the viewer's static file server (ranges, content
// types); Chromium starts as in the repository's browser tests (tools/test-utils), whose helpers
// are TypeScript sources this plain-JavaScript bench cannot import on Node 20.
import { existsSync } from "node:fs";
import { rm } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { startStaticServer } from "../../examples/viewer/static-server.mjs";
import { LARGE_VARIANTS, largeStat } from "./large.mjs";
import { ensureLargeArrays } from "./large-data.mjs";
import { largeLayout } from "./large-values.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const PAGE_ROOT = join(here, "..", "browser");

/** Where the bench finds Chromium (`CHROMIUM_PATH` overrides, as for the browser tests). */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/**
 * Headless flags of the browser tests (no sandbox in containers, no GPU, no background traffic),
 * and `gc()` in the page, so each run starts after a collection.
 */
const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--js-flags=--expose-gc",
];

/** Packages whose WebAssembly loaders Vite cannot bundle (bz2, lzma): left out of the page. */
const NOT_BUNDLED = ["@foxglove/wasm-bz2", "@napi-rs/lzma"];

/**
 * Chunk reads zarrita keeps in flight in the page (its `createQueue` option): unbounded, Chromium
 * refuses the thousands of inner-chunk requests of a sharded read (see browser/page.js).
 */
export const ZARRITA_CONCURRENCY = 32;

/** Whether Chromium is installed where {@link CHROMIUM_PATH} says. */
export function chromiumAvailable() {
  return existsSync(CHROMIUM_PATH);
}

/**
 * Bundles the page into `outDir`: from the built packages (`dist`, what users install) unless
 * `fromSource` (the TypeScript sources, for tests without a build).
 */
export async function buildPage(outDir, { fromSource = false } = {}) {
  const { build } = await import("vite");
  const conditions = [...(fromSource ? ["source"] : []), "browser", "import", "module", "default"];
  await build({
    configFile: false,
    logLevel: "error",
    root: PAGE_ROOT,
    base: "./",
    resolve: { conditions },
    worker: { format: "es", rollupOptions: { external: NOT_BUNDLED } },
    build: {
      outDir,
      emptyOutDir: true,
      target: "es2022",
      minify: false,
      chunkSizeWarningLimit: 4000,
      rollupOptions: { external: NOT_BUNDLED },
    },
  });
}

/** The decode pool the page makes for `--workers`, in words. */
function workersLabel(workers) {
  if (workers === "auto" || workers === undefined)
    return "a pool of Web Workers (createWorkerPool(): cores - 1, at least 1)";
  return workers ? `a pool of ${workers} Web Workers` : "inline, on the page's thread";
}

/**
 * Runs the browser bench: the arrays of `--edge` (generated under `dataDir/large` when missing),
 * a page server and Chromium, all stopped at the end. `fromSource` bundles the page from the
 * TypeScript sources. Returns `{edge, bytes, chromium, isolated, workers, pool, results}`:
 * `isolated` says the page was cross-origin isolated, `pool` counts the workers our page started
 * and the chunks they decoded (small chunks decode inline), and each result's `sharedResult`
 * whether our reads of it returned results in a SharedArrayBuffer.
 */
export async function benchBrowser(options, { dataDir, say, fromSource = false }) {
  const edge = options.edge;
  const { chunks, inner } = largeLayout(edge);
  const arrays = await ensureLargeArrays(join(dataDir, "large"), edge, say);
  const bytes = edge ** 3 * 2;
  const pageDir = join(dataDir, `browser-page-${process.pid}`);
  say("browser: bundling the page with Vite");
  await buildPage(pageDir, { fromSource });
  // Cross-origin isolated, as a page that wants SharedArrayBuffer is served: our reads then
  // return results in shared memory that the workers copy chunks into.
  const server = await startStaticServer({
    mounts: { "/": pageDir, "/data/": dirname(arrays.zstd) },
    crossOriginIsolated: true,
  });
  let browser;
  try {
    const { chromium } = await import("playwright-core");
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
    const page = await browser.newPage();
    const errors = [];
    page.on("pageerror", (e) => errors.push(`pageerror: ${e.message}`));
    page.on("console", (m) => {
      if (m.type() === "error") errors.push(`console.error: ${m.text()}`);
    });
    await page.goto(`${server.url}index.html`);
    await page.waitForFunction(() => typeof globalThis.__readAll === "function", null, {
      timeout: 60_000,
    });
    const isolated = await page.evaluate(() => globalThis.crossOriginIsolated === true);
    const call = async (name, argument) => {
      try {
        return await page.evaluate(([fn, arg]) => globalThis[fn](arg), [name, argument]);
      } catch (error) {
        throw new Error(
          `browser ${name}: ${error.message}${errors.length ? `\n${errors.join("\n")}` : ""}`,
        );
      }
    };
    const workers = options.workers;
    const results = [];
    let pool = { workers: 0, dispatched: 0 };
    for (const variant of LARGE_VARIANTS) {
      const url = `${server.url}data/${variant}.zarr`;
      for (const lib of ["ours", "zarrita"]) {
        say(`browser ${variant}: warm-up (${lib})`);
        await call("__warmUp", { lib, url, workers, concurrency: ZARRITA_CONCURRENCY });
      }
      const runs = { ours: [], zarrita: [] };
      let sharedResult = true;
      for (let rep = 0; rep < options.repeats; rep++) {
        for (const lib of rep % 2 ? ["zarrita", "ours"] : ["ours", "zarrita"]) {
          say(`browser ${variant}: read ${rep + 1}/${options.repeats} (${lib})`);
          const run = await call("__readAll", {
            lib,
            url,
            workers,
            concurrency: ZARRITA_CONCURRENCY,
            edge,
          });
          if (lib === "ours") {
            pool = { workers: run.workers, dispatched: run.dispatched };
            sharedResult &&= run.shared;
          }
          runs[lib].push({ seconds: run.seconds });
        }
      }
      results.push({
        op: "browser",
        variant,
        chunks: variant === "sharded" ? inner : chunks,
        shards: variant === "sharded" ? chunks : undefined,
        storedBytes: arrays.storedBytes[variant],
        ours: largeStat(runs.ours, bytes),
        zarrita: largeStat(runs.zarrita, bytes),
        sharedResult,
      });
    }
    if (errors.length) throw new Error(`browser: the page reported errors:\n${errors.join("\n")}`);
    return {
      edge,
      bytes,
      chromium: browser.version(),
      isolated,
      workers: workersLabel(workers),
      pool,
      zarritaConcurrency: ZARRITA_CONCURRENCY,
      results,
    };
  } finally {
    await browser?.close();
    await server.close();
    await rm(pageDir, { recursive: true, force: true });
  }
}
