// Module hooks that let plain Node run the TypeScript sources: imports written as `./x.js`
// resolve to `./x.ts`, and `.ts` files are stripped of their types by Vite's oxc transform.
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { transformWithOxc } from "vite";

export async function resolve(specifier, context, next) {
  try {
    return await next(specifier, context);
  } catch (error) {
    if (/^\.{1,2}\//.test(specifier) && specifier.endsWith(".js")) {
      return next(`${specifier.slice(0, -3)}.ts`, context);
    }
    throw error;
  }
}

export async function load(url, context, next) {
  if (!url.startsWith("file:") || !url.endsWith(".ts")) return next(url, context);
  const path = fileURLToPath(url);
  const source = await readFile(path, "utf8");
  const { code } = await transformWithOxc(source, path, { lang: "ts", sourcemap: false });
  return { format: "module", source: code, shortCircuit: true };
}
