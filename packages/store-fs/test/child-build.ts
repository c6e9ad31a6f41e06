import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const packages = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");

/**
 * Transpiles the errors, store-core and store-fs sources into plain ES modules under `outDir`, so a
 * child process can run the real FsStore without a build step or a TypeScript loader.
 * @returns the path of the FsStore entry module
 */
export function buildFsStoreForChild(outDir: string): string {
  for (const name of ["errors", "store-core", "store-fs"]) {
    const sourceDir = path.join(packages, name, "src");
    mkdirSync(path.join(outDir, name), { recursive: true });
    for (const file of readdirSync(sourceDir).filter((f) => f.endsWith(".ts"))) {
      const { outputText } = ts.transpileModule(readFileSync(path.join(sourceDir, file), "utf8"), {
        compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
      });
      const code = outputText
        .replaceAll('from "@z/store-core"', 'from "../store-core/index.js"')
        .replaceAll('from "@z/store-core/internal"', 'from "../store-core/internal.js"')
        .replaceAll('from "@z/errors"', 'from "../errors/index.js"');
      writeFileSync(path.join(outDir, name, file.replace(/\.ts$/, ".js")), code);
    }
  }
  writeFileSync(path.join(outDir, "package.json"), '{"type": "module"}\n');
  return path.join(outDir, "store-fs", "index.js");
}
