import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import {
  bundleForBrowser,
  chromiumAvailableOrWarn,
  launchChromium,
  repositoryRoot,
  tempDir,
} from "@z/test-utils";
import { createArray, openArray, slice } from "@z/zarr";
import { describe, expect, it } from "vitest";

const built = existsSync(path.join(repositoryRoot, "packages/zarr/dist/index.js"));
const here = path.dirname(fileURLToPath(import.meta.url));

/** The same round trips in Node, for the values the browser must reproduce. */
async function expectedResults() {
  const run = async (compressors: unknown, zarrFormat: 2 | 3 = 3) => {
    const store = new Map<string, Uint8Array>();
    const arr = await createArray(store, {
      shape: [20, 30],
      chunks: [7, 8],
      dtype: "float32",
      compressors: compressors as never,
      zarrFormat,
    });
    await arr.set(null, {
      data: Float32Array.from({ length: 600 }, (_, i) => Math.sin(i / 10) * 100),
      shape: [20, 30],
    });
    const back = await (await openArray(store)).get([slice(3, 18, 2), slice(null, null, -3)]);
    let sum = 0;
    for (const v of back.data as Float32Array) sum += v;
    return { shape: back.shape, sum: Math.round(sum * 1000) / 1000 };
  };
  return { none: await run(null), zlibV2: await run({ id: "zlib", level: 1 }, 2) };
}

if (!built)
  console.warn("[browser bundle] SKIPPED: build the packages first (pnpm build; pnpm test does)");
const hasChromium = chromiumAvailableOrWarn("browser bundle in Chromium");

describe.skipIf(!built)("the browser bundle", () => {
  const { dir, remove } = tempDir("z-browser-");
  let bundle = "";

  it("bundles @z/zarr for browsers with no Node built-ins", async () => {
    bundle = await bundleForBrowser(path.join(here, "browser/entry.js"), { fromBuild: true });
    expect(bundle.length).toBeGreaterThan(10_000);
    // Vite swaps Node built-ins for empty "__vite-browser-external" stubs; either form is a leak.
    const nodeImports =
      bundle.match(
        /__vite-browser-external:[\w:/]+|from\s*["']node:[a-z_/]+["']|import\(\s*["']node:[a-z_/]+["']\s*\)/g,
      ) ?? [];
    expect(nodeImports, "Node built-ins reached the browser bundle").toEqual([]);
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, "bundle.js"), bundle);
  }, 120_000);

  it.skipIf(!hasChromium)(
    "runs in headless Chromium and reads what it writes",
    async () => {
      expect(bundle).not.toBe("");
      const browser = await launchChromium();
      try {
        const page = await browser.newPage();
        const errors: string[] = [];
        page.on("pageerror", (e) => errors.push(e.message));
        await page.goto("about:blank");
        await page.addScriptTag({ content: bundle, type: "module" });
        await page.waitForFunction(
          () => typeof (window as unknown as { __run?: unknown }).__run === "function",
          null,
          { timeout: 30_000 },
        );
        const results = await page.evaluate(() =>
          (window as unknown as { __run: () => Promise<unknown> }).__run(),
        );
        expect(errors).toEqual([]);
        const expected = await expectedResults();
        const r = results as Record<string, { shape: number[]; sum: number }> & {
          strings: string[];
        };
        for (const name of ["none", "gzip", "zstd", "blosc", "lz4V2"])
          expect(r[name], name).toEqual(expected.none);
        expect(r.zlibV2).toEqual(expected.zlibV2);
        expect(r.strings).toEqual(["a", "ünï", "🚀", ""]);
      } finally {
        await browser.close();
        remove();
      }
    },
    120_000,
  );
});
