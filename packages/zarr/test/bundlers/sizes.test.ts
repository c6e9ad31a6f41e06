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
 * array's metadata first names it, and so does the sharded read/write path. What a read of a
 * v3 array does not use loads on first use too: the write path (array/src/write/write-path.ts:
 * values, chunk writes and their key locks, resize, append, the metadata documents and the
 * consolidated-metadata update), the v2 parsers (array/src/nodes/node-parse-v2.ts), the orthogonal,
 * point, mask and block indexers (array/src/io/selection-indexers.ts), the logging proxy of
 * stores (only when store logging is on) and the adapter of a `Map` passed as a store.
 *
 * esbuild splits what the lazily loaded chunks share with the page into about forty files; Vite
 * 8.4 merges them into one (first-load.test.ts measures that app in Chromium, with its own
 * budgets). The core app measures 47.0 kB, the umbrella app 51.3 kB: the chunk cache's option,
 * passed along to the read path, added 0.1 kB (the cache itself loads only with a ChunkCache),
 * and the umbrella's `icechunk+` location prefix (store-core routes a registered `name+` prefix;
 * the Icechunk reader loads with the first such location) 0.2 kB. 5.7 kB came with zarr-python
 * 3's API, of which about 2.5 kB is gzip's cost of 11 more first-load files, as more features load
 * on first use and split the shared code further (the same scripts gzipped as one grew by 3.2 kB):
 * open modes and the read-only view `mode: "r"` and `withReadOnly` give (open-mode.ts,
 * read-only-store.ts), the store API every store inherits (store-base.ts), storage transformers
 * (an array's chunk store goes through them), NumPy's type names that `arr.is` and
 * `openArray({dtype})` accept, the codecs by role (`arr.filters`, `serializer`, `compressors`:
 * synchronous getters) and the group methods, methods of a class that a bundler cannot drop.
 * Creating a node in a mode, group edits (move, delete), the creation shorthands and counting
 * stored chunks load on first use (write/mode-creation.ts, not create-nodes.ts: a dynamic import
 * keeps every export of its module, and the umbrella names createArray). Before that, 2.3 kB came
 * with reads that use every core: the short-run word copier of strided copies (twice as fast on
 * the rows of a 64³ chunk, which every read of such chunks copies), `ChunkPart.region` and the
 * choice between a result in shared memory that the pool's workers fill and the copy on this
 * thread, and the pool decoder's fallbacks; what runs only with a worker pool (placement.ts,
 * pool-placement.ts, pool-encoder.ts), only for blosc (element-hints.ts) or only with decode
 * hints (decode-hints.ts) loads on first use. The sum is per file, and each file
 * costs gzip what it cannot share with the others (the same scripts gzipped as one measure about
 * a fifth less). ARCHITECTURE.md ("Laziness") gives the two rules this budget guards: package
 * entries re-export whole modules with `export *` (a barrel of named re-exports is a module of
 * its own, which drags every module it names into each file that reaches it), and a module that
 * both the first load and a lazy feature import goes into the first load whole. So a first-load
 * module that imports a name it does not need there (a parser importing the JSON writer for
 * `isJsonObject`) brings that name's module into the first load when a lazy chunk uses it, and
 * such helpers live in files of their own (json-object.ts, dtype-option.ts,
 * array-metadata-json.ts); a module moved behind a loader pays off only when that loader's chunk
 * shares nothing new with the first load, and each move is measured. Still in the first load
 * though a read does not use them: the
 * `rectilinear` chunk grid (its parsing is synchronous and public) and `arr.info` (a synchronous
 * getter).
 */
const BUDGET = {
  /** The documented lightest way: @z/array + @z/store-http (+ @z/indexing for `slice`). */
  core: 47_100,
  /** The umbrella package, which also registers strings, Arrow and zip/http locations. */
  umbrella: 51_400,
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
