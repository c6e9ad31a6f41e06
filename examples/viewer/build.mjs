// Builds the viewer with Vite from the packages' TypeScript sources (the "source" export
// condition), so no package build is needed first.
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));

/**
 * The WebAssembly decoders of bz2 and lzma load on first use through loaders Vite cannot bundle
 * without extra plugins; they stay out, so data compressed with them cannot be viewed here.
 */
const NOT_BUNDLED = ["@foxglove/wasm-bz2", "@napi-rs/lzma"];

/**
 * Builds the viewer into `outDir` (default `examples/viewer/dist`).
 * @param {string} [outDir]
 * @returns {Promise<string>} the output folder
 */
export async function buildViewer(outDir = path.join(here, "dist")) {
  const { build } = await import("vite");
  await build({
    configFile: false,
    logLevel: "error",
    root: here,
    base: "./",
    resolve: { conditions: ["source", "browser", "import", "module", "default"] },
    // The codec worker is an ES module worker: it imports the codecs, whose decoders load lazily.
    worker: { format: "es", rollupOptions: { external: NOT_BUNDLED } },
    build: {
      outDir,
      emptyOutDir: true,
      target: "es2022",
      chunkSizeWarningLimit: 2000,
      rollupOptions: { external: NOT_BUNDLED },
    },
  });
  return outDir;
}
