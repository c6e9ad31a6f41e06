// Builds the test apps the way a user would, with each bundler's defaults, into a folder that
// a page can load (index.html + its scripts).
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

/** The folder of the test apps. */
export const appsDir = path.join(path.dirname(fileURLToPath(import.meta.url)), "apps");

/** The bundlers the tests build with. */
export type Bundler = "vite" | "esbuild" | "webpack";

/** A built app: its folder and the scripts its page loads at once. */
export interface BuiltApp {
  /** The folder holding index.html and the scripts. */
  dir: string;
  /** The files the page loads before it runs (the entry and what it imports statically). */
  firstLoad: string[];
  /**
   * Vite builds only: the minified bytes of each first-load script by where its code comes
   * from (`@z/<package>`, an npm package, or `app` for the app and the bundler's helpers).
   */
  byPackage?: Record<string, number>;
}

/** Builds `apps/<app>.js` with a bundler's defaults into `outDir`. */
export async function buildApp(bundler: Bundler, app: string, outDir: string): Promise<BuiltApp> {
  const entry = path.join(appsDir, `${app}.js`);
  if (bundler === "vite") return buildWithVite(entry, outDir);
  if (bundler === "esbuild") return buildWithEsbuild(entry, outDir);
  return buildWithWebpack(entry, outDir);
}

/**
 * Vite with no config file. Each app has its page in `apps/` (`index.html` loads zarr-app.js,
 * `<app>.html` the others), and the page is the build's one input: the option names the page,
 * and chunking stays Vite's default.
 */
async function buildWithVite(entry: string, outDir: string): Promise<BuiltApp> {
  const app = path.basename(entry, ".js");
  const page = path.join(appsDir, app === "zarr-app" ? "index.html" : `${app}.html`);
  const { build } = await import("vite");
  const result = await build({
    configFile: false,
    root: appsDir,
    logLevel: "silent",
    build: { outDir, emptyOutDir: true, rollupOptions: { input: page } },
  });
  const html = readFileSync(path.join(outDir, path.basename(page)), "utf8");
  const scripts = [...html.matchAll(/(?:src|href)="\/?([^"]+\.js)"/g)].map((m) => m[1]);
  if (path.basename(page) !== "index.html") writeFileSync(path.join(outDir, "index.html"), html);
  const byPackage: Record<string, number> = {};
  const outputs = (Array.isArray(result) ? result[0] : result) as RollupOutputLike;
  for (const chunk of outputs.output)
    if (chunk.type === "chunk" && scripts.includes(chunk.fileName))
      for (const [id, { renderedLength }] of Object.entries(chunk.modules)) {
        const source = origin(id);
        byPackage[source] = (byPackage[source] ?? 0) + renderedLength;
      }
  return { dir: outDir, firstLoad: scripts.map((s) => path.join(outDir, s)), byPackage };
}

/** The part of a Vite build's result that sizes read. */
interface RollupOutputLike {
  output: Array<
    | { type: "chunk"; fileName: string; modules: Record<string, { renderedLength: number }> }
    | { type: "asset" }
  >;
}

/** Where a module of a build comes from: `@z/<package>`, an npm package, or the app. */
function origin(id: string): string {
  const ours = /\/packages\/([^/]+)\//.exec(id);
  if (ours && !id.includes("/node_modules/")) return `@z/${ours[1]}`;
  const theirs = /.*\/node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(id);
  if (theirs && theirs[1] !== "vite") return theirs[1];
  return "app";
}

/** esbuild with what a browser app needs: bundle, ESM output, code splitting, minify. */
async function buildWithEsbuild(entry: string, outDir: string): Promise<BuiltApp> {
  const esbuild = await import("esbuild");
  const result = await esbuild.build({
    entryPoints: { main: entry },
    bundle: true,
    format: "esm",
    splitting: true,
    minify: true,
    platform: "browser",
    outdir: outDir,
    metafile: true,
    logLevel: "silent",
  });
  writeFileSync(path.join(outDir, "index.html"), page("./main.js"));
  const outputs = result.metafile.outputs;
  const firstLoad = new Set<string>();
  const visit = (file: string) => {
    if (firstLoad.has(file)) return;
    firstLoad.add(file);
    for (const imported of outputs[file]?.imports ?? [])
      if (imported.kind === "import-statement") visit(imported.path);
  };
  // Dynamically imported modules are entry points too: the app's own is the one named main.js.
  const main = Object.keys(outputs).find((file) => path.basename(file) === "main.js");
  if (main === undefined) throw new Error("esbuild wrote no entry chunk");
  visit(main);
  return { dir: outDir, firstLoad: [...firstLoad].map((f) => path.resolve(f)) };
}

/** webpack in production mode with its defaults (the entry and the output folder only). */
async function buildWithWebpack(entry: string, outDir: string): Promise<BuiltApp> {
  const { default: webpack } = await import("webpack");
  const stats = await new Promise<import("webpack").Stats>((resolve, reject) =>
    webpack(
      {
        mode: "production",
        entry: { main: entry },
        output: { path: outDir, filename: "[name].js", chunkFilename: "[name].[contenthash].js" },
        performance: { hints: false },
      },
      (error, result) => (error || !result ? reject(error) : resolve(result)),
    ),
  );
  if (stats.hasErrors())
    throw new Error(stats.toString({ all: false, errors: true, errorDetails: true }));
  writeFileSync(path.join(outDir, "index.html"), page("./main.js", "text/javascript"));
  return { dir: outDir, firstLoad: [path.join(outDir, "main.js")] };
}

function page(script: string, type = "module"): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><script type="${type}" src="${script}"></script></head><body></body></html>\n`;
}

/** Total bytes and gzipped bytes (level 9, as servers send them) of a list of files. */
export function measure(files: string[]): { bytes: number; gzip: number } {
  let bytes = 0;
  let gzip = 0;
  for (const file of files) {
    const content = readFileSync(file);
    bytes += content.length;
    gzip += gzipSync(content, { level: 9 }).length;
  }
  return { bytes, gzip };
}
