// An app built with esbuild from @z/zarr reads an Icechunk repository the official
// implementation wrote, over HTTP from another origin, in Chromium without cross-origin
// isolation, through an `icechunk+http://` location; the Icechunk reader is not in its first load.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import {
  chromiumAvailableOrWarn,
  launchChromium,
  repositoryRoot,
  startTestHttpServer,
  tempDir,
} from "@z/test-utils";
import { describe, expect, it } from "vitest";
import { officialRepositoryIn, valueAt, versionAt } from "./official-on-disk.js";

const here = path.dirname(fileURLToPath(import.meta.url));
const built = ["zarr", "store-icechunk"].every((p) =>
  existsSync(path.join(repositoryRoot, `packages/${p}/dist/index.js`)),
);
if (!built) console.warn("[icechunk+ in a browser] SKIPPED: build the packages first (pnpm build)");
const canRun = built && chromiumAvailableOrWarn("icechunk+ in a browser");

/** A string only the Icechunk reader's code holds (the name of one of its errors). */
const ICECHUNK_CODE = "IcechunkRefNotFoundError";

/** Builds the app with esbuild (ESM, code splitting); returns its folder and first-load files. */
async function buildApp(outDir: string): Promise<{ firstLoad: string[]; all: string[] }> {
  const esbuild = await import("esbuild");
  const result = await esbuild.build({
    entryPoints: { main: path.join(here, "browser-app.js") },
    bundle: true,
    format: "esm",
    splitting: true,
    minify: true,
    platform: "browser",
    outdir: outDir,
    metafile: true,
    logLevel: "silent",
  });
  writeFileSync(
    path.join(outDir, "index.html"),
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><script type="module" src="./main.js"></script></head><body></body></html>\n',
  );
  const outputs = result.metafile.outputs;
  const firstLoad = new Set<string>();
  const visit = (file: string) => {
    if (firstLoad.has(file)) return;
    firstLoad.add(file);
    for (const imported of outputs[file]?.imports ?? [])
      if (imported.kind === "import-statement") visit(imported.path);
  };
  const main = Object.keys(outputs).find((file) => path.basename(file) === "main.js");
  if (main === undefined) throw new Error("esbuild wrote no entry chunk");
  visit(main);
  const js = Object.keys(outputs).filter((f) => f.endsWith(".js"));
  return {
    firstLoad: [...firstLoad].map((f) => path.resolve(f)),
    all: js.map((f) => path.resolve(f)),
  };
}

describe.skipIf(!canRun)("icechunk+http:// in Chromium, from an app built with esbuild", () => {
  it("reads branch main and a tag, loading the Icechunk reader only then", async () => {
    const { dir, remove } = tempDir("z-icechunk-browser-app-");
    const data = await startTestHttpServer({ root: path.join(dir, "data"), cors: true });
    let site: Awaited<ReturnType<typeof startTestHttpServer>> | undefined;
    const browser = await launchChromium();
    try {
      await officialRepositoryIn(path.join(dir, "data", "repo"), 2);
      const app = await buildApp(path.join(dir, "app"));
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
