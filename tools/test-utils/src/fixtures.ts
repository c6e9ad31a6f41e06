import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");

/**
 * The conformance fixtures folder: `$ZARR_FIXTURES`, or `../shared/fixtures` beside the
 * repository. Undefined when it is absent (a user's fresh clone).
 */
export const fixturesDir: string | undefined = (() => {
  const dir = process.env.ZARR_FIXTURES ?? path.resolve(repoRoot, "../shared/fixtures");
  return existsSync(dir) ? dir : undefined;
})();

const warned = new Set<string>();

/**
 * Whether the fixtures are present; when they are not, prints (once per suite) why the
 * suite's fixture tests are skipped, so a skip is never silent.
 */
export function haveFixtures(suite: string): boolean {
  if (fixturesDir) return true;
  if (!warned.has(suite)) {
    warned.add(suite);
    console.warn(
      `[${suite}] SKIPPED: conformance fixtures not found (looked for $ZARR_FIXTURES or ../shared/fixtures beside the repository)`,
    );
  }
  return false;
}

/** A path inside the fixtures folder. */
export function fixturePath(...parts: string[]): string {
  if (!fixturesDir) throw new Error("Conformance fixtures are not available");
  return path.join(fixturesDir, ...parts);
}

/** The repository root. */
export const repositoryRoot = repoRoot;
