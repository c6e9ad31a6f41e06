import { existsSync } from "node:fs";
import path from "node:path";
import { repositoryRoot, tempDir } from "@z/test-utils";
import { afterAll, describe, expect, it } from "vitest";
import { buildApp, measure } from "./bundle.js";

const built = existsSync(path.join(repositoryRoot, "packages/zarr/dist/index.js"));
if (!built)
  console.warn("[bundle sizes] SKIPPED: build the packages first (pnpm build; pnpm test does)");

/**
 * First-load budgets, gzipped: the scripts a page loads before its first chunk needs a codec.
 * The app opens an HTTP array and reads a slice. Only the `bytes` codec and the plain numeric
 * data types load at startup; every other codec (gzip, zstd, blosc, sharding, transpose,
 * crc32c, the filters, ...) and data type (complex, datetime, strings, Arrow, ...) loads when an
 * array's metadata first names it, and so does the sharded read/write path.
 *
 * The goal for the core app is 40 kB; it measures 42.4 kB, the umbrella app 47.5 kB. esbuild's
 * code splitting treats a barrel of named re-exports as a module of its own, so a module
 * re-exported by name that a lazy chunk also uses moves into the first load; the build turns
 * every named block that names a whole module into `export *` (same names,
 * tools/build/split-friendly-barrels.mjs), and every module an index re-exports holds public
 * names only (helpers shared between files or packages live in files of their own, such as
 * json-write.ts next to json.ts), so nothing stays named but `group.js` (not in this app). The
 * orthogonal, point and mask indexers load on first use (array/src/selection-indexers.ts).
 * The rest of the way: the logging proxy, the rectilinear chunk grid and resize behind loaders
 * (each a further file, which costs gzip some of what it saves).
 */
const BUDGET = {
  /** The documented lightest way: @z/array + @z/store-http (+ @z/indexing for `slice`). */
  core: 43_000,
  /** The umbrella package, which also registers strings, Arrow and zip/http locations. */
  umbrella: 48_500,
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
    const zarrita = sizes["zarrita-app"];
    for (const [app, { bytes, gzip }] of Object.entries(sizes)) {
      const ratio = app === "zarrita-app" ? "" : `, ${(gzip / zarrita.gzip).toFixed(1)}x zarrita's`;
      console.log(`[bundle sizes] ${app}: ${kB(bytes)} (${kB(gzip)} gzipped${ratio})`);
    }
    expect(sizes["core-app"].gzip).toBeLessThanOrEqual(BUDGET.core);
    expect(sizes["zarr-app"].gzip).toBeLessThanOrEqual(BUDGET.umbrella);
  });
});
