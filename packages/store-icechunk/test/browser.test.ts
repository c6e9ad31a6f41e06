import { mkdirSync, writeFileSync } from "node:fs";
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
import { shardedAt, valueAt, versionAt, writeOfficialRepository } from "./official-repo.js";

const here = path.dirname(fileURLToPath(import.meta.url));
const hasChromium = chromiumAvailableOrWarn("store-icechunk browser");

describe.skipIf(!hasChromium)("an Icechunk repository read in a real browser", () => {
  it("opens a spec version 2 repository over HTTP, reads a tag and the history", async () => {
    const written = await writeOfficialRepository(2);
    const sandbox = tempDir("z-icechunk-browser-");
    for (const [key, bytes] of written.files) {
      mkdirSync(path.dirname(path.join(sandbox.dir, "repo", key)), { recursive: true });
      writeFileSync(path.join(sandbox.dir, "repo", key), bytes);
    }
    const bundle = await bundleForBrowser(path.join(here, "browser/entry.ts"));
    const server = await startTestHttpServer({ root: sandbox.dir });
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      const errors: string[] = [];
      page.on("pageerror", (e) => errors.push(e.message));
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
      const result = await page.evaluate(
        (url) => (window as unknown as { __run: (u: string) => Promise<unknown> }).__run(url),
        `${server.url}repo/`,
      );
      expect(errors).toEqual([]);
      expect(result).toEqual({
        branches: ["dev", "main"],
        history: written.ancestry.main,
        values: Array.from({ length: 300 }, (_, i) => valueAt("float64", i, versionAt("c2", i))),
        corner: [0, 1, 2, 3].map((c) => shardedAt("c2", 0, c)),
      });
    } finally {
      await browser.close();
      await server.stop();
      sandbox.remove();
    }
  }, 180_000);
});
