import { existsSync, readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
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
import { type Bundler, buildApp } from "./bundle.js";

const built = existsSync(path.join(repositoryRoot, "packages/zarr/dist/index.js"));
if (!built)
  console.warn("[bundlers] SKIPPED: build the packages first (pnpm build; pnpm test does)");
const canRun = built && chromiumAvailableOrWarn("bundlers");

/** The arrays the apps read, by path: one per compressor, and one sharded. */
const ARRAYS: Record<string, object> = {
  raw: { compressors: null },
  gzip: { compressors: [{ name: "gzip", configuration: { level: 5 } }] },
  zstd: { compressors: [{ name: "zstd", configuration: { level: 3, checksum: false } }] },
  blosc: {
    compressors: [
      {
        name: "blosc",
        configuration: { cname: "lz4", clevel: 5, shuffle: "shuffle", typesize: 2 },
      },
    ],
  },
  sharded: { shards: [6, 5], compressors: [{ name: "gzip", configuration: { level: 1 } }] },
};

/** Serves a built app's folder (the page's own origin) with the MIME types browsers require. */
async function serveApp(dir: string): Promise<{ url: string; server: Server }> {
  const types: Record<string, string> = { ".html": "text/html", ".js": "text/javascript" };
  const server = createServer((request, response) => {
    const name = decodeURIComponent((request.url ?? "/").split("?")[0]).replace(/^\/+/, "");
    const file = path.join(dir, name === "" ? "index.html" : name);
    if (!file.startsWith(dir) || !existsSync(file)) {
      response.writeHead(404).end();
      return;
    }
    const type = types[path.extname(file)] ?? "application/octet-stream";
    response.writeHead(200, { "Content-Type": type }).end(readFileSync(file));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, server };
}

describe.skipIf(!canRun)("apps that import @z/zarr, built with each bundler's defaults", () => {
  const { dir, remove } = tempDir("z-bundlers-");
  let data: TestHttpServer;
  let browser: import("playwright-core").Browser;

  beforeAll(async () => {
    const root = await writeAppArrays(dir, ARRAYS);
    // The data lives on another origin (another port), as on a CDN or an object store.
    data = await startTestHttpServer({ root, cors: true });
    browser = await launchChromium();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await data?.stop();
    remove();
  });

  const bundlers: Bundler[] = ["vite", "esbuild", "webpack"];
  for (const bundler of bundlers) {
    it(`${bundler}: builds, and reads every array over HTTP from another origin in Chromium`, async () => {
      const app = await buildApp(bundler, "zarr-app", path.join(dir, bundler));
      const { url, server } = await serveApp(app.dir);
      const page = await browser.newPage();
      const errors: string[] = [];
      page.on("pageerror", (e) => errors.push(e.message));
      try {
        await page.goto(url);
        await page.waitForFunction(
          () => typeof (window as { __read?: unknown }).__read === "function",
        );
        for (const name of Object.keys(ARRAYS)) {
          data.reset();
          const result = await page.evaluate(
            ([base, name]) =>
              (window as unknown as { __read(u: string, p: string): Promise<unknown> }).__read(
                base,
                name,
              ),
            [data.url, name] as const,
          );
          expect(result, name).toEqual(EXPECTED);
          const preflights = data.requests.filter((r) => r.method === "OPTIONS");
          // Whole-value reads need no preflight; only a shard's first index read (a suffix
          // range, its size unknown) may.
          if (name !== "sharded") expect(preflights, name).toEqual([]);
        }
        expect(errors).toEqual([]);
      } finally {
        await page.close();
        server.close();
      }
    }, 180_000);
  }

  it("sends a suffix read as an explicit range once the size is known: no second preflight", async () => {
    const app = await buildApp("esbuild", "zarr-app", path.join(dir, "esbuild-suffix"));
    const { url, server } = await serveApp(app.dir);
    const page = await browser.newPage();
    try {
      await page.goto(url);
      await page.waitForFunction(
        () => typeof (window as { __suffixTwice?: unknown }).__suffixTwice === "function",
      );
      data.reset();
      const [first, second] = (await page.evaluate(
        ([base]) =>
          (
            window as unknown as { __suffixTwice(u: string, k: string): Promise<number[][]> }
          ).__suffixTwice(base, "raw/c/0/0"),
        [data.url] as const,
      )) as number[][];
      const chunk = readFileSync(path.join(dir, "data/raw/c/0/0"));
      expect(first).toEqual(Array.from(chunk.subarray(-16)));
      expect(second).toEqual(Array.from(chunk.subarray(-8)));
      const seen = data.requests.map((r) => [r.method, r.range ?? null]);
      const size = chunk.length;
      expect(seen).toEqual([
        ["OPTIONS", null],
        ["GET", "bytes=-16"],
        ["GET", `bytes=${size - 8}-${size - 1}`],
      ]);
    } finally {
      await page.close();
      server.close();
    }
  }, 120_000);
});
