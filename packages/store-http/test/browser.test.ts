import path from "node:path";
import { fileURLToPath } from "node:url";
import {
  bundleForBrowser,
  chromiumAvailableOrWarn,
  launchChromium,
  startTestHttpServer,
  tempDir,
} from "@z/test-utils";
import { describe, expect, it } from "vitest";
import { writeEntries } from "./support.js";

const here = path.dirname(fileURLToPath(import.meta.url));

const hasChromium = chromiumAvailableOrWarn("store-http browser");

describe.skipIf(!hasChromium)("HttpStore in a real browser", () => {
  it("reads with the browser's fetch (no 'Illegal invocation')", async () => {
    const bundle = await bundleForBrowser(path.join(here, "browser/entry.ts"));
    const sandbox = tempDir("z-store-http-browser-");
    writeEntries(sandbox.dir, [["data.zarr/a/k", Uint8Array.of(10, 20, 30, 40)]]);
    const server = await startTestHttpServer({ root: sandbox.dir });
    const browser = await launchChromium();
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
