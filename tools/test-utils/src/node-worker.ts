import { mkdirSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { repositoryRoot } from "./fixtures.js";

/** The folder of the codecs package, whose worker module {@link bundleNodeWorker} bundles. */
const codecsDir = path.join(repositoryRoot, "packages/codecs");

/**
 * A folder for a bundle of the decode pool's worker module: inside the codecs package, so the
 * bundle's bare imports (fflate, numcodecs, @napi-rs/lzma...) resolve from that package's
 * node_modules as the built package's would. One per name and process; the caller removes it.
 */
export function nodeWorkerDir(name: string): string {
  return path.join(codecsDir, "node_modules/.cache", name, String(process.pid));
}

/**
 * Bundles the worker_threads module of the decode pool (packages/codecs/src/workers/
 * node-worker.ts) from the TypeScript sources with Vite into `outDir`, as a build would compile
 * it: Node cannot run the TypeScript module itself. Third-party packages stay imports (native
 * and WASM modules do not bundle); our own packages are bundled from their sources. Resolves to
 * the URL `createWorkerPool({ workerUrl })` takes.
 */
export async function bundleNodeWorker(outDir: string): Promise<URL> {
  const { build } = await import("vite");
  const conditions = ["source", "node", "import", "module", "default"];
  mkdirSync(outDir, { recursive: true });
  await build({
    configFile: false,
    logLevel: "error",
    resolve: { conditions },
    ssr: { resolve: { conditions, externalConditions: conditions } },
    build: {
      ssr: path.join(codecsDir, "src/workers/node-worker.ts"),
      outDir,
      emptyOutDir: true,
      target: "node20",
      minify: false,
      rollupOptions: {
        external: (id) => /^(node:|[a-z@])/.test(id) && !id.startsWith("@z/"),
        output: { format: "es", entryFileNames: "node-worker.mjs" },
      },
    },
  });
  return pathToFileURL(path.join(outDir, "node-worker.mjs"));
}
