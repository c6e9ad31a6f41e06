import { existsSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Browser, Page } from "playwright-core";
import { type ServedRequest, startTestHttpServer, type TestHttpServer } from "../http-server.js";
import { tempDir } from "../temp.js";

/** Where the browser tests find Chromium (`CHROMIUM_PATH` overrides). */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/** Headless flags for a quiet, offline Chromium: no sandbox (containers), GPU or background traffic. */
export const CHROMIUM_ARGS: readonly string[] = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** Whether Chromium is installed where {@link CHROMIUM_PATH} says. */
export function chromiumAvailable(): boolean {
  return existsSync(CHROMIUM_PATH);
}

/**
 * {@link chromiumAvailable}, and when it is not, a warning that the suite `label` is skipped, so
 * a run without Chromium says so in its log instead of passing quietly.
 */
export function chromiumAvailableOrWarn(label: string): boolean {
  const available = chromiumAvailable();
  if (!available)
    console.warn(`[${label}] SKIPPED: no Chromium at ${CHROMIUM_PATH} (apt-get install chromium)`);
  return available;
}

/**
 * Packages the codecs load on first use through WebAssembly loaders that Vite cannot bundle
 * without extra plugins: pages leave them out (`external`); the Node tests cover those codecs.
 */
export const NOT_BUNDLED_IN_PAGES: readonly string[] = ["@foxglove/wasm-bz2", "@napi-rs/lzma"];

/** The vitest shim a browser bundle uses in place of `vitest` (see {@link bundleForBrowser}). */
export const VITEST_SHIM = fileURLToPath(new URL("./vitest-shim.ts", import.meta.url));

/**
 * Bundles a browser entry (TypeScript, workspace packages from their sources) into one ES
 * module with vite. `shimVitest` maps `vitest` to {@link VITEST_SHIM}, so test code written for
 * vitest (the store contract suite) runs in the page. `fromBuild` resolves workspace packages
 * to their built `dist` files instead of their sources (to test what is published).
 * @returns the code of the bundle
 */
export async function bundleForBrowser(
  entry: string,
  options: { shimVitest?: boolean; external?: string[]; fromBuild?: boolean } = {},
): Promise<string> {
  const { build } = await import("vite");
  const output = (await build({
    configFile: false,
    logLevel: "error",
    root: path.dirname(entry),
    resolve: {
      conditions: [
        ...(options.fromBuild ? [] : ["source"]),
        "browser",
        "import",
        "module",
        "default",
      ],
      alias: options.shimVitest ? [{ find: /^vitest$/, replacement: VITEST_SHIM }] : [],
    },
    build: {
      write: false,
      target: "es2022",
      minify: false,
      rollupOptions: {
        input: entry,
        external: options.external ?? [],
        output: { codeSplitting: false, format: "es" },
      },
    },
  })) as
    | { output: { type: string; code?: string }[] }
    | { output: { type: string; code?: string }[] }[];
  const chunks = (Array.isArray(output) ? output.flatMap((o) => o.output) : output.output).filter(
    (o) => o.type === "chunk",
  );
  return chunks.map((c) => c.code ?? "").join("\n");
}

/** Launches headless Chromium with {@link CHROMIUM_ARGS}. */
export async function launchChromium(): Promise<Browser> {
  const { chromium } = await import("playwright-core");
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS] });
}

/** A page served over HTTP on 127.0.0.1 (a secure context, so OPFS and Web Locks work). */
export interface ServedPage {
  /** The page's address (`http://127.0.0.1:<port>/index.html`). */
  readonly url: string;
  /** The server of the page and its bundle. */
  readonly server: TestHttpServer;
  /** Stops the server and removes the served folder. */
  stop(): Promise<void>;
}

/**
 * Serves an HTML page that loads `bundle` as a module, from its own server on 127.0.0.1 (its
 * own origin; data servers started by the test are then other origins).
 */
export async function servePage(bundle: string): Promise<ServedPage> {
  const folder = tempDir("z-browser-page-");
  writeFileSync(path.join(folder.dir, "bundle.js"), bundle);
  writeFileSync(
    path.join(folder.dir, "index.html"),
    '<!doctype html><meta charset="utf-8"><title>z</title><link rel="icon" href="data:,"><script type="module" src="bundle.js"></script>',
  );
  const server = await startTestHttpServer({ root: folder.dir, contentTypes: true });
  return {
    url: `${server.url}index.html`,
    server,
    async stop() {
      await server.stop();
      folder.remove();
    },
  };
}

/** A Chromium tab on a served page whose bundle defines functions on `globalThis`. */
export interface ChromiumPage {
  /** The Playwright page. */
  readonly page: Page;
  /** The page's origin (`http://127.0.0.1:<port>`). */
  readonly origin: string;
  /** Uncaught errors and `console.error` lines of the page so far. */
  readonly errors: string[];
  /**
   * Calls `globalThis[name](argument)` in the page (argument and result pass as JSON) and
   * resolves to its result; rejects when it throws or runs over `timeoutMs` (default 120 s).
   */
  call<T>(name: string, argument?: unknown, timeoutMs?: number): Promise<T>;
  /**
   * Opens the same page in another tab of the same browser context (same origin, same
   * storage: IndexedDB, OPFS and Web Locks are shared), ready like the first.
   */
  openTab(): Promise<ChromiumPage>;
  /** Closes the browser and stops the page server. */
  close(): Promise<void>;
}

/**
 * Serves `bundle` in a page on 127.0.0.1, opens it in headless Chromium and waits until the
 * bundle has defined `globalThis[ready]` (default `__run`). Close it with
 * {@link ChromiumPage.close}.
 */
export async function openChromiumPage(bundle: string, ready = "__run"): Promise<ChromiumPage> {
  const served = await servePage(bundle);
  let browser: Browser | undefined;
  try {
    browser = await launchChromium();
    const opened = browser;
    const tab = async (page: Page): Promise<ChromiumPage> => {
      const errors: string[] = [];
      page.on("pageerror", (e) => errors.push(`pageerror: ${e.message}`));
      page.on("console", (m) => {
        if (m.type() === "error") errors.push(`console.error: ${m.text()}`);
      });
      await page.goto(served.url);
      await page.waitForFunction(
        (name) => typeof (globalThis as Record<string, unknown>)[name] === "function",
        ready,
        { timeout: 30_000 },
      );
      return {
        page,
        origin: new URL(served.url).origin,
        errors,
        call: (name, argument = null, timeoutMs = 120_000) =>
          callInPage(page, name, argument, timeoutMs),
        openTab: async () => tab(await page.context().newPage()),
        async close() {
          await opened.close();
          await served.stop();
        },
      };
    };
    // A context of its own (not browser.newPage()), so more tabs can join it.
    return await tab(await (await browser.newContext()).newPage());
  } catch (error) {
    await browser?.close();
    await served.stop();
    throw error;
  }
}

/** Calls `globalThis[name](argument)` in a page, with a time limit. */
async function callInPage<T>(
  page: Page,
  name: string,
  argument: unknown,
  timeoutMs: number,
): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const call = page.evaluate(
    ([fn, arg]) =>
      (globalThis as unknown as Record<string, (a: unknown) => Promise<unknown>>)[fn as string](
        arg,
      ),
    [name, argument] as const,
  );
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`${name}() in the page ran over ${timeoutMs} ms`)),
      timeoutMs,
    );
  });
  try {
    return (await Promise.race([call, limit])) as T;
  } finally {
    clearTimeout(timer);
  }
}

/** What a page run produced. */
export interface PageRun<T> {
  /** What the page's `__run()` resolved to. */
  result: T;
  /** Uncaught errors and `console.error` lines of the page. */
  errors: string[];
}

/**
 * Opens `bundle` in Chromium ({@link openChromiumPage}), calls its `__run(argument)` and
 * resolves to what it returns; the browser and the page server are closed afterwards.
 */
export async function runInChromium<T>(
  bundle: string,
  argument: unknown = null,
  options: { timeoutMs?: number } = {},
): Promise<PageRun<T>> {
  const page = await openChromiumPage(bundle);
  try {
    const result = await page.call<T>("__run", argument, options.timeoutMs);
    return { result, errors: [...page.errors] };
  } finally {
    await page.close();
  }
}

/** A page run against a data server, with what that server saw. */
export interface DataServerRun<T> extends PageRun<T> {
  /** The requests the data server answered, in order. */
  served: ServedRequest[];
}

/**
 * Serves the folder `root` with CORS from an origin of its own, bundles the page `entry`
 * (leaving out {@link NOT_BUNDLED_IN_PAGES}) and runs its `__run({ dataUrl })` in Chromium
 * ({@link runInChromium}); the data server is stopped afterwards.
 */
export async function runPageOnDataServer<T>(
  entry: string,
  root: string,
): Promise<DataServerRun<T>> {
  const server = await startTestHttpServer({ root, cors: true });
  try {
    const bundle = await bundleForBrowser(entry, { external: [...NOT_BUNDLED_IN_PAGES] });
    const run = await runInChromium<T>(bundle, { dataUrl: server.url });
    return { ...run, served: server.requests };
  } finally {
    await server.stop();
  }
}
