// What a page built by Vite really downloads to open an HTTP array and read a slice: the scripts
// Chromium fetches from the app's server until the read resolves, first load and lazy chunks
// alike, measured gzipped as a server sends them. zarrita's app does the same read, for scale.
import { existsSync } from "node:fs";
import path from "node:path";
import {
  chromiumAvailableOrWarn,
  launchChromium,
  repositoryRoot,
  startTestHttpServer,
  type TestHttpServer,
  tempDir,
} from "@z/test-utils";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EXPECTED, writeAppArrays } from "./app-data.js";
import { type BuiltApp, buildApp, measure } from "./bundle.js";

const built = existsSync(path.join(repositoryRoot, "packages/zarr/dist/index.js"));
if (!built)
  console.warn("[first load] SKIPPED: build the packages first (pnpm build; pnpm test does)");
const canRun = built && chromiumAvailableOrWarn("first load");

/** 40 KiB gzipped in at most 12 scripts: the umbrella app's whole download for the read. */
const UMBRELLA = { gzip: 40 * 1024, files: 12 };
/**
 * The core packages' app (@z/array + @z/store-http + @z/indexing): it measures 36.2 kB against
 * zarrita's 12.5 kB. What the other 23.7 kB buy is printed by the test, by package.
 */
const CORE = { gzip: 36_500, files: 12 };

/** The arrays read: no compressor (the budget's case) and the default one (zstd), v3 both. */
const ARRAYS: Record<string, object> = { raw: { compressors: null }, zstd: {} };

/** What one read downloaded: the scripts and WebAssembly fetched, and their gzipped size. */
interface Download {
  files: string[];
  gzip: number;
}

describe.skipIf(!canRun)("the download of a Vite app that reads an HTTP array", () => {
  const { dir, remove } = tempDir("z-first-load-");
  let data: TestHttpServer;
  let browser: import("playwright-core").Browser;
  const apps: Record<string, BuiltApp> = {};
  const downloads: Record<string, Download> = {};

  beforeAll(async () => {
    const root = await writeAppArrays(dir, ARRAYS);
    data = await startTestHttpServer({ root, cors: true });
    browser = await launchChromium();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await data?.stop();
    remove();
  });

  /** Opens the app's page in a fresh tab, reads `array`, and returns what the page fetched. */
  async function download(app: BuiltApp, array: string, base: string): Promise<Download> {
    const site = await startTestHttpServer({ root: app.dir, contentTypes: true });
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    try {
      await page.goto(`${site.url}index.html`);
      await page.waitForFunction(
        () => typeof (window as { __read?: unknown }).__read === "function",
      );
      const result = await page.evaluate(
        ([base, name]) =>
          (window as unknown as { __read(u: string, p: string): Promise<unknown> }).__read(
            base,
            name,
          ),
        [base, array] as const,
      );
      expect(result, array).toEqual(EXPECTED);
      expect(errors).toEqual([]);
      const files = [
        ...new Set(
          site.requests
            .filter((r) => r.status === 200 && /\.(js|wasm)$/.test(r.path))
            .map((r) => r.path),
        ),
      ];
      return { files, gzip: measure(files.map((f) => path.join(app.dir, f))).gzip };
    } finally {
      await page.close();
      await site.stop();
    }
  }

  for (const app of ["zarrita-app", "core-app", "zarr-app"]) {
    it(`${app}: builds with Vite and reads each array in Chromium`, async () => {
      apps[app] = await buildApp("vite", app, path.join(dir, app));
      // zarrita's store takes the array's URL; ours take the store's and a path.
      for (const array of Object.keys(ARRAYS))
        downloads[`${app} ${array}`] =
          app === "zarrita-app"
            ? await download(apps[app], "", `${data.url}${array}`)
            : await download(apps[app], array, data.url);
    }, 180_000);
  }

  it("stays within the budgets, and prints what each package adds", () => {
    const kB = (n: number) => `${(n / 1000).toFixed(1)} kB`;
    const zarrita = downloads["zarrita-app raw"];
    for (const [name, { files, gzip }] of Object.entries(downloads)) {
      const ratio = name.startsWith("zarrita")
        ? ""
        : `, ${(gzip / zarrita.gzip).toFixed(1)}x zarrita's`;
      console.log(`[first load] ${name}: ${files.length} files, ${kB(gzip)} gzipped${ratio}`);
    }
    for (const [name, app] of Object.entries(apps)) {
      const parts = Object.entries(app.byPackage ?? {}).sort((a, b) => b[1] - a[1]);
      const line = parts.map(([source, bytes]) => `${source} ${kB(bytes)}`).join(", ");
      console.log(`[first load] ${name} first-load scripts, minified, by source: ${line}`);
    }
    const umbrella = downloads["zarr-app raw"];
    expect(umbrella.gzip).toBeLessThanOrEqual(UMBRELLA.gzip);
    expect(umbrella.files.length).toBeLessThanOrEqual(UMBRELLA.files);
    const core = downloads["core-app raw"];
    expect(core.gzip).toBeLessThanOrEqual(CORE.gzip);
    expect(core.files.length).toBeLessThanOrEqual(CORE.files);
    // The static first load (the page's scripts and preloads) is part of what the read fetched.
    for (const app of ["core-app", "zarr-app"]) {
      const names = apps[app].firstLoad.map((f) => path.relative(apps[app].dir, f));
      for (const name of names) expect(downloads[`${app} raw`].files).toContain(name);
    }
  });
});
