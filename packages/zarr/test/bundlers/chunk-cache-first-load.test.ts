// The chunk cache stays out of the first load of an app that does not use it: esbuild bundles
// the core read (openArray + get over HTTP, from @z/array and from the umbrella) and the same
// read with a ChunkCache, and the modules of packages/array/src/cache are in the scripts loaded
// before the first read only in the second.
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { repositoryRoot } from "@z/test-utils";
import { afterAll, describe, expect, it } from "vitest";

const built = existsSync(path.join(repositoryRoot, "packages/array/dist/cache/chunk-cache.js"));
if (!built) console.warn("[chunk cache first load] SKIPPED: build the packages first (pnpm build)");

// Inside the package, so `@z/...` resolves to the built packages as an app's would.
const here = path.dirname(fileURLToPath(import.meta.url));
const work = path.join(here, "../../.tmp", `chunk-cache-first-load-${process.pid}`);

const read = (from: string, cached: boolean) => `
import { ${cached ? "ChunkCache, " : ""}HttpStore, openArray, slice } from "${from}";
window.__read = async (url, path) => {
  const array = await openArray(new HttpStore(url), { path${cached ? ", cache: new ChunkCache({ maxBytes: 2 ** 26 })" : ""} });
  return (await array.get([slice(1, 5), null])).data;
};
`;

/** The source files of the scripts an app loads before its first dynamic import. */
async function firstLoadInputs(name: string, source: string): Promise<string[]> {
  const esbuild = await import("esbuild");
  const dir = path.join(work, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, "main.js"), source);
  const result = await esbuild.build({
    entryPoints: { main: path.join(dir, "main.js") },
    bundle: true,
    format: "esm",
    splitting: true,
    minify: true,
    platform: "browser",
    outdir: path.join(dir, "out"),
    metafile: true,
    logLevel: "silent",
  });
  const outputs = result.metafile.outputs;
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const imported of outputs[file]?.imports ?? [])
      if (imported.kind === "import-statement") visit(imported.path);
  };
  visit(Object.keys(outputs).find((file) => path.basename(file) === "main.js") as string);
  return [...seen].flatMap((file) => Object.keys(outputs[file].inputs));
}

const isCacheModule = (input: string) => /packages\/array\/dist\/cache\//.test(input);

describe.skipIf(!built)("the chunk cache and the first load", () => {
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it("@z/zarr: a read without a cache loads none of it; one with a cache does", async () => {
    const from = "@z/zarr";
    const plain = await firstLoadInputs("plain", read(from, false));
    expect(plain.some((input) => input.includes("packages/array/dist/io/array-chunks.js"))).toBe(
      true,
    );
    expect(plain.filter(isCacheModule)).toEqual([]);
    const cached = await firstLoadInputs("cached", read(from, true));
    expect(
      cached
        .filter(isCacheModule)
        .map((input) => path.basename(input))
        .sort(),
    ).toEqual(["array-cache.js", "cache-core.js", "cached-chunk.js", "chunk-cache.js"]);
  }, 120_000);

  it("@z/array: openArray and get without a cache load none of it", async () => {
    const source = `
import { openArray } from "@z/array";
import { slice } from "@z/indexing";
import { HttpStore } from "@z/store-http";
window.__read = async (url, path) => (await (await openArray(new HttpStore(url), { path })).get([slice(1, 5), null])).data;
`;
    const inputs = await firstLoadInputs("core", source);
    expect(inputs.some((input) => input.includes("packages/array/dist/io/array-chunks.js"))).toBe(
      true,
    );
    expect(inputs.filter(isCacheModule)).toEqual([]);
  }, 120_000);
});
