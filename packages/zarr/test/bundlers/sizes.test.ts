import { existsSync } from "node:fs";
import path from "node:path";
import { repositoryRoot, tempDir } from "@z/test-utils";
import { afterAll, describe, expect, it } from "vitest";
import { buildApp, measure } from "./bundle.js";

const built = existsSync(path.join(repositoryRoot, "packages/zarr/dist/index.js"));
if (!built)
  console.warn("[bundle sizes] SKIPPED: build the packages first (pnpm build; pnpm test does)");

/**
 * First-load budgets, gzipped: the scripts a page loads before its first chunk needs a codec
 * (every codec beyond bytes loads on first use). The app opens an HTTP array and reads a slice.
 * They sit just above today's sizes so that growth fails here (the registered extension data
 * types and codecs, which register eagerly, put the core app at 76.7 kB); the goal is 40 kB for
 * the core app, which needs the data types (metadata) and the codec classes to load lazily too.
 */
const BUDGET = {
  /** The documented lightest way: @z/array + @z/store-http (+ @z/indexing for `slice`). */
  core: 79_000,
  /** The umbrella package, which also registers strings, Arrow and zip support. */
  umbrella: 124_000,
};

describe.skipIf(!built)("first-load size of an app that reads an HTTP array", () => {
  const { dir, remove } = tempDir("z-bundle-size-");
  afterAll(remove);
  const sizes: Record<string, { bytes: number; gzip: number }> = {};

  for (const app of ["core-app", "zarr-app", "zarrita-app"]) {
    it(`bundles ${app} with esbuild`, async () => {
      const result = await buildApp("esbuild", app, path.join(dir, app));
      sizes[app] = measure(result.firstLoad);
      expect(sizes[app].gzip).toBeGreaterThan(1000);
    }, 120_000);
  }

  it("stays within the budgets, and prints them against zarrita's", () => {
    const kB = (n: number) => `${(n / 1000).toFixed(1)} kB`;
    for (const [app, { bytes, gzip }] of Object.entries(sizes))
      console.log(`[bundle sizes] ${app}: ${kB(bytes)} (${kB(gzip)} gzipped)`);
    expect(sizes["core-app"].gzip).toBeLessThanOrEqual(BUDGET.core);
    expect(sizes["zarr-app"].gzip).toBeLessThanOrEqual(BUDGET.umbrella);
  });
});
