import { existsSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Browser } from "playwright-core";
import { startTestHttpServer, type TestHttpServer } from "../http-server.js";
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

/** The vitest shim a browser bundle uses in place of `vitest` (see {@link bundleForBrowser}). */
export const VITEST_SHIM = fileURLToPath(new URL("./vitest-shim.ts", import.meta.url));

/**
 * Bundles a browser entry (TypeScript, workspace packages from their sources) into one ES
 * module with vite. `shimVitest` maps `vitest` to {@link VITEST_SHIM}, so test code written for
 * vitest (the store contract suite) runs in the page.
 * @returns the code of the bundle
 */
export async function bundleForBrowser(
  entry: string,
  options: { shimVitest?: boolean; external?: string[] } = {},
): Promise<string> {
  const { build } = await import("vite");
  const output = (await build({
    configFile: false,
    logLevel: "error",
    root: path.dirname(entry),
    resolve: {
      conditions: ["source", "browser", "import", "module", "default"],
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
  })) as { output: { type: string; code?: string }[] } | { output: { type: string; code?: string }[] }[];
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

/** What a page run produced. */
export interface PageRun<T> {
  /** What the page's `__run()` resolved to. */
  result: T;
  /** Uncaught errors and `console.error` lines of the page. */
  errors: string[];
}

/**
 * Serves `bundle` in a page, launches Chromium, waits for the bundle to define
 * `globalThis.__run`, calls it with `argument` (JSON) and resolves to what it returns.
 * The browser and the page server are closed afterwards, whatever happens.
 */
export async function runInChromium<T>(
  bundle: string,
  argument: unknown = null,
  options: { timeoutMs?: number } = {},
): Promise<PageRun<T>> {
  const timeoutMs = options.timeoutMs ?? 120_000;
  const page = await servePage(bundle);
  const browser = await launchChromium();
  try {
    const tab = await browser.newPage();
    const errors: string[] = [];
    tab.on("pageerror", (e) => errors.push(`pageerror: ${e.message}`));
    tab.on("console", (m) => {
      if (m.type() === "error") errors.push(`console.error: ${m.text()}`);
    });
    await tab.goto(page.url);
    await tab.waitForFunction(
      () => typeof (globalThis as { __run?: unknown }).__run === "function",
      null,
      { timeout: 30_000 },
    );
    let timer: ReturnType<typeof setTimeout> | undefined;
    const result = await Promise.race([
      tab.evaluate(
        (arg) => (globalThis as unknown as { __run: (a: unknown) => Promise<unknown> }).__run(arg),
        argument,
      ),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`the page ran over ${timeoutMs} ms`)), timeoutMs);
      }),
    ]).finally(() => clearTimeout(timer));
    return { result: result as T, errors };
  } finally {
    await browser.close();
    await page.stop();
  }
}
