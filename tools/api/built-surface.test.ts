import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { SNAPSHOT_DIR } from "./api-surface.js";

/*
 * Package entries re-export whole modules with `export *` (so bundlers bind names straight to
 * their modules; ARCHITECTURE.md, "Laziness"). This checks that the compiled `dist/index.js` of
 * every package exports at runtime exactly the values of its API snapshot: no internal name
 * leaks, none goes missing.
 */
const packagesRoot = join(import.meta.dirname, "../../packages");
const built = readdirSync(packagesRoot).filter((name) =>
  existsSync(join(packagesRoot, name, "dist/index.js")),
);
if (built.length === 0)
  console.warn(
    "[built API surface] SKIPPED: build the packages first (pnpm build; pnpm test does)",
  );

/** The runtime names (classes, functions, constants) of an entry in a package's snapshot. */
function snapshotValues(name: string, entry: string): string[] {
  const snapshot = JSON.parse(readFileSync(join(SNAPSHOT_DIR, `${name}.api.json`), "utf8"));
  const kinds: Record<string, string> = snapshot[entry] ?? {};
  return Object.entries(kinds)
    .filter(([, kind]) => /class|const|function|enum/.test(kind))
    .map(([exported]) => exported)
    .sort();
}

describe.skipIf(built.length === 0)("compiled entries export their snapshot's values", () => {
  for (const name of built.filter((n) => existsSync(join(SNAPSHOT_DIR, `${n}.api.json`)))) {
    it(`@z/${name} dist/index.js`, async () => {
      const url = pathToFileURL(join(packagesRoot, name, "dist/index.js")).href;
      const module = (await import(/* @vite-ignore */ url)) as Record<string, unknown>;
      expect(Object.keys(module).sort()).toEqual(snapshotValues(name, `@z/${name}`));
    });
  }
});
