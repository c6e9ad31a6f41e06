import { existsSync } from "node:fs";
import path from "node:path";
import { repositoryRoot } from "./fixtures.js";

const warned = new Set<string>();

/**
 * Whether the named workspace packages are built (`packages/<name>/dist/index.js` exists); when
 * one is not, prints (once per suite) that the suite's tests of the built packages are skipped
 * and how to build them, so a skip is never silent.
 */
export function builtPackagesOrWarn(suite: string, packages: readonly string[]): boolean {
  const missing = packages.filter(
    (name) => !existsSync(path.join(repositoryRoot, "packages", name, "dist", "index.js")),
  );
  if (missing.length === 0) return true;
  if (!warned.has(suite)) {
    warned.add(suite);
    console.warn(
      `[${suite}] SKIPPED: not built: ${missing.map((n) => `@z/${n}`).join(", ")} (run pnpm build; pnpm test does)`,
    );
  }
  return false;
}
