// The Web Worker pool in headless Chromium: every codec decodes to the same values in a worker
// as inline (and as in Node), and aborting stops queued work. The page is bundled by Vite from
// the TypeScript sources and served from 127.0.0.1.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromiumAvailable, launchChromium, NOT_BUNDLED_IN_PAGES, tempDir } from "@z/test-utils";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStaticServer } from "../../../examples/viewer/static-server.mjs";
import { type WorkerCase, workerCases } from "./workers-cases.js";

const here = path.dirname(fileURLToPath(import.meta.url));
/**
 * The codecs of NOT_BUNDLED_IN_PAGES: they stay out of this page and are covered by the Node
 * pool test.
 */
const NOT_IN_PAGE = ["numcodecs.bz2", "numcodecs.lzma"];

/** Bundles the test page (and the worker it starts) into `outDir`. */
async function buildPage(outDir: string): Promise<void> {
  const { build } = await import("vite");
  await build({
    configFile: false,
    logLevel: "error",
    root: path.join(here, "workers-page"),
    resolve: { conditions: ["source", "browser", "import", "module", "default"] },
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

interface PageResult {
  label: string;
  inline: unknown[];
  worker: unknown[];
  inlineClass: string;
  workerClass: string;
}

describe.skipIf(!chromiumAvailable())("the Web Worker decode pool in Chromium", () => {
  const { dir, remove } = tempDir("z-workers-page-");
  let browser: Browser;
  let page: Page;
  let server: { url: string; close: () => Promise<void> };
  let cases: WorkerCase[];

  beforeAll(async () => {
    cases = (await workerCases()).filter((c) => !c.covers.some((n) => NOT_IN_PAGE.includes(n)));
    await buildPage(dir);
    server = await startStaticServer({ mounts: { "/": dir } });
    browser = await launchChromium();
    page = await browser.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await page.goto(server.url);
    await page.waitForFunction(() => "__decodeBoth" in window, null, { timeout: 30_000 });
    expect(errors).toEqual([]);
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    remove();
  });

  it("decodes every codec's chunks in a worker exactly as inline", async () => {
    const run = (c: unknown) =>
      (window as unknown as { __decodeBoth: (c: unknown) => Promise<unknown> }).__decodeBoth(c);
    const { results, stats, registered } = (await page.evaluate(run, cases as unknown)) as {
      results: PageResult[];
      stats: { dispatched: number; inline: number };
      registered: string[];
    };
    const covered = new Set([...cases.flatMap((c) => c.covers), ...NOT_IN_PAGE]);
    expect(registered.filter((name) => !covered.has(name))).toEqual([]);
    expect(results.map((r) => r.label)).toEqual(cases.map((c) => c.label));
    results.forEach((r, k) => {
      expect(r.worker, `${r.label}: worker vs inline`).toEqual(r.inline);
      expect(r.inline, `${r.label}: page vs Node`).toEqual(cases[k].expected);
      expect(r.workerClass, `${r.label}: container class`).toBe(r.inlineClass);
    });
    // Every chunk really went to a worker.
    expect(stats.dispatched).toBe(cases.length);
    expect(stats.inline).toBe(0);
  });

  it("aborting drops queued decodes: they reject and never reach a worker", async () => {
    const big = cases.find((c) => c.label === "zstd") as WorkerCase;
    const jobs = 40;
    const run = ([c, n]: [unknown, number]) =>
      (
        window as unknown as { __abortQueued: (c: unknown, n: number) => Promise<unknown> }
      ).__abortQueued(c, n);
    const r = (await page.evaluate(run, [big as unknown, jobs] as [unknown, number])) as {
      before: { queued: number; running: number };
      after: { queued: number; running: number; dispatched: number };
      settled: string[];
      againLength: number;
    };
    // One worker: one job running, the rest queued, when the abort came.
    expect(r.before.running + r.before.queued).toBe(jobs);
    expect(r.before.queued).toBeGreaterThanOrEqual(jobs - 1);
    expect(r.settled.filter((s) => s === "AbortError").length).toBeGreaterThanOrEqual(jobs - 1);
    expect(r.after.queued).toBe(0);
    // Nothing queued was posted after the abort: at most the one already running.
    expect(r.after.dispatched).toBeLessThanOrEqual(1);
    expect(r.againLength).toBe(48 * 40);
  });
});
