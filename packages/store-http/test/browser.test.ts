import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { startTestHttpServer, tempDir } from "@z/test-utils";
import { describe, expect, it } from "vitest";
import { writeEntries } from "./support.js";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const here = path.dirname(fileURLToPath(import.meta.url));

if (!existsSync(CHROMIUM))
  console.warn(
    `[store-http browser] SKIPPED: no Chromium at ${CHROMIUM} (apt-get install chromium)`,
  );

describe.skipIf(!existsSync(CHROMIUM))("HttpStore in a real browser", () => {
  it("reads with the browser's fetch (no 'Illegal invocation')", async () => {
    const { build } = await import("vite");
    const output = (await build({
      configFile: false,
      logLevel: "error",
      root: path.join(here, "browser"),
      resolve: { conditions: ["source", "browser", "import", "module", "default"] },
      build: {
        write: false,
        target: "es2022",
        minify: false,
        rollupOptions: {
          input: path.join(here, "browser/entry.ts"),
          output: { codeSplitting: false, format: "es" },
        },
      },
    })) as
      | { output: { type: string; code?: string }[] }
      | { output: { type: string; code?: string }[] }[];
    const chunks = (Array.isArray(output) ? output.flatMap((o) => o.output) : output.output).filter(
      (o) => o.type === "chunk",
    );
    const bundle = chunks.map((c) => c.code ?? "").join("\n");
    const sandbox = tempDir("z-store-http-browser-");
    writeEntries(sandbox.dir, [["data.zarr/a/k", Uint8Array.of(10, 20, 30, 40)]]);
    const server = await startTestHttpServer({ root: sandbox.dir });
    const { chromium } = await import("playwright-core");
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"],
    });
    try {
      const page = await browser.newPage();
      const errors: string[] = [];
      page.on("pageerror", (e) => errors.push(e.message));
      // An empty page of the server's origin, so the reads are same-origin; they go to the
      // real server (only this one URL is answered by the browser driver).
      await page.route(`${server.url}page`, (route) =>
        route.fulfill({ contentType: "text/html", body: "<!doctype html><title>z</title>" }),
      );
      await page.goto(`${server.url}page`);
      await page.addScriptTag({ content: bundle, type: "module" });
      await page.waitForFunction(
        () => typeof (window as unknown as { __run?: unknown }).__run === "function",
        null,
        { timeout: 30_000 },
      );
      const result = await page.evaluate(() =>
        (window as unknown as { __run: () => Promise<unknown> }).__run(),
      );
      expect(errors).toEqual([]);
      expect(result).toEqual({
        whole: [10, 20, 30, 40],
        part: [20, 30],
        suffix: [40],
        missing: undefined,
        has: true,
      });
      expect(server.requests.filter((r) => r.path.startsWith("data.zarr/")).length).toBe(5);
    } finally {
      await browser.close();
      await server.stop();
      sandbox.remove();
    }
  }, 120_000);
});
