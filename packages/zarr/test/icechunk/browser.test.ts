// An app built with esbuild from @z/zarr reads an Icechunk repository the official
// implementation wrote, over HTTP from another origin, in Chromium without cross-origin
// isolation, through an `icechunk+http://` location; the Icechunk reader is not in its first load.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import {
  chromiumAvailableOrWarn,
  launchChromium,
  repositoryRoot,
  startTestHttpServer,
  tempDir,
} from "@z/test-utils";
import { describe, expect, it } from "vitest";
import { buildApp } from "../bundlers/bundle.js";
import { officialRepositoryIn, valueAt, versionAt } from "./official-on-disk.js";

const built = ["zarr", "store-icechunk"].every((p) =>
  existsSync(path.join(repositoryRoot, `packages/${p}/dist/index.js`)),
);
if (!built) console.warn("[icechunk+ in a browser] SKIPPED: build the packages first (pnpm build)");
const canRun = built && chromiumAvailableOrWarn("icechunk+ in a browser");

/** A string only the Icechunk reader's code holds (the name of one of its errors). */
const ICECHUNK_CODE = "IcechunkRefNotFoundError";

/** Builds the app with esbuild; returns its first-load scripts and every script it wrote. */
async function buildIcechunkApp(outDir: string): Promise<{ firstLoad: string[]; all: string[] }> {
  const app = await buildApp("esbuild", "icechunk-app", outDir);
  const all = readdirSync(outDir)
    .filter((f) => f.endsWith(".js"))
    .map((f) => path.join(outDir, f));
  return { firstLoad: app.firstLoad, all };
}

describe.skipIf(!canRun)("icechunk+http:// in Chromium, from an app built with esbuild", () => {
  it("reads branch main and a tag, loading the Icechunk reader only then", async () => {
    const { dir, remove } = tempDir("z-icechunk-browser-app-");
    const data = await startTestHttpServer({ root: path.join(dir, "data"), cors: true });
    let site: Awaited<ReturnType<typeof startTestHttpServer>> | undefined;
    const browser = await launchChromium();
    try {
      await officialRepositoryIn(path.join(dir, "data", "repo"), 2);
      const app = await buildIcechunkApp(path.join(dir, "app"));
      const holds = (f: string) => readFileSync(f, "utf8").includes(ICECHUNK_CODE);
      expect(app.firstLoad.filter(holds)).toEqual([]);
      // The reader is in the build, in a chunk of its own.
      const lazy = app.all.filter(holds);
      expect(lazy).toHaveLength(1);

      site = await startTestHttpServer({ root: path.join(dir, "app"), contentTypes: true });
      const page = await browser.newPage();
      const errors: string[] = [];
      page.on("pageerror", (e) => errors.push(e.message));
      await page.goto(`${site.url}index.html`);
      await page.waitForFunction(
        () => typeof (window as { __read?: unknown }).__read === "function",
      );
      const fetchedBefore = site.requests.map((r) => r.path);
      expect(fetchedBefore).not.toContain(path.basename(lazy[0]));
      const read = (location: string) =>
        page.evaluate(
          ([l, p]) =>
            (window as unknown as { __read(l: string, p: string): Promise<unknown> }).__read(l, p),
          [location, "numeric/float64"] as const,
        );
      const expected = (label: "c1" | "c2") =>
        Array.from({ length: 300 }, (_, i) => valueAt("float64", i, versionAt(label, i)));
      expect(await read(`icechunk+${data.url}repo`)).toEqual({
        crossOriginIsolated: false,
        data: expected("c2"),
      });
      expect(await read(`icechunk+${data.url}repo#ref=v1`)).toEqual({
        crossOriginIsolated: false,
        data: expected("c1"),
      });
      expect(errors).toEqual([]);
      expect(site.requests.map((r) => r.path)).toContain(path.basename(lazy[0]));
      expect(data.requests.some((r) => r.path.startsWith("repo/snapshots/"))).toBe(true);
    } finally {
      await browser.close();
      await site?.stop();
      await data.stop();
      remove();
    }
  }, 180_000);
});
