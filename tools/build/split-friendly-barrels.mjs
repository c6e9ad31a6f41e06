#!/usr/bin/env node
/**
 * Runs after `tsc` in each package's build, on the compiled entry files (`dist/index.js`,
 * `dist/internal.js`). The sources list their exports by name, which is the public surface
 * (tools/api checks it). esbuild's code splitting, though, treats a barrel of named re-exports
 * as a module of its own: every module it re-exports that a lazily loaded chunk also uses
 * moves into the first load (measured by packages/zarr/test/bundlers/sizes.test.ts), while
 * `export * from` lets it bind straight to the modules. So:
 * - in `index.js`, a block that names every runtime export of its module (or, for another
 *   `@z` package, every runtime name of its API snapshot) becomes `export * from` that module:
 *   the same names, so the public surface does not change;
 * - in `internal.js` (the `@z/pkg/internal` subpath, shared between the packages and not part of
 *   the public API) every block becomes `export * from`.
 * The type declarations (`.d.ts`) keep the named lists.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

const dist = path.resolve(process.argv[2] ?? "dist");
const apiFolder = path.resolve(import.meta.dirname, "../../api");

/** The runtime names of another package's entry, from its API snapshot (api/<name>.api.json). */
function packageExports(specifier) {
  const [scope, name, ...rest] = specifier.split("/");
  if (scope !== "@z" || rest.length > 0) return undefined;
  const file = path.join(apiFolder, `${name}.api.json`);
  if (!existsSync(file)) return undefined;
  const entry = JSON.parse(readFileSync(file, "utf8"))[specifier];
  if (!entry) return undefined;
  const kinds = Object.entries(entry);
  return new Set(
    kinds.filter(([, kind]) => /class|const|function|enum/.test(kind)).map(([n]) => n),
  );
}
const BLOCK = /export \{([^}]*)\} from "([^"]+)";/g;

/** The names a compiled module exports at runtime, or undefined when it re-exports with `*`. */
function runtimeExports(file) {
  const source = readFileSync(file, "utf8");
  if (/export \*/.test(source)) return undefined;
  const names = new Set();
  for (const block of source.matchAll(/export \{([^}]*)\}/g))
    for (const spec of block[1].split(",")) {
      const name = spec
        .trim()
        .split(/\s+as\s+/)
        .pop();
      if (name) names.add(name);
    }
  for (const decl of source.matchAll(
    /export (?:async )?(?:function\*?|class|const|let|var) ([A-Za-z0-9_$]+)/g,
  ))
    names.add(decl[1]);
  return names;
}

function rewrite(entry, whole) {
  const file = path.join(dist, entry);
  if (!existsSync(file)) return 0;
  let count = 0;
  const source = readFileSync(file, "utf8").replace(BLOCK, (block, specs, from) => {
    const listed = specs
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean);
    if (listed.some((s) => /\s+as\s+/.test(s))) return block;
    if (!whole) {
      const own = from.startsWith(".")
        ? runtimeExports(path.join(path.dirname(file), from))
        : packageExports(from);
      if (!own || own.size !== listed.length || !listed.every((n) => own.has(n))) return block;
    }
    count++;
    return `export * from "${from}";`;
  });
  writeFileSync(file, source);
  return count;
}

rewrite("index.js", false);
rewrite("internal.js", true);
