import { readFileSync, realpathSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig, type Plugin } from "vitest/config";
import { excludedBlocks, excludedFiles, excludedTests } from "./exclusions.js";
import { absentModules, moduleMap } from "./module-map.js";

// Runs the tests zarrita 0.7.5 ships (dist/__tests__) against @z/zarrita: their imports of
// zarrita's modules resolve to this package's, the fixtures folder of zarrita's repository
// resolves to ../shared/fixtures/zarrita, and the tests listed in exclusions.ts are marked
// skipped (the tests of an excluded file run against zarrita itself, all skipped, so they are
// counted). zarrita-suite.test.ts runs this config and prints the count.

const here = path.dirname(fileURLToPath(import.meta.url));
const packageRoot = path.resolve(here, "../..");
// zarrita is a devDependency of this package (its exports map has no "./package.json").
const zarritaRoot = realpathSync(path.join(packageRoot, "node_modules/zarrita"));
const testsDir = path.join(zarritaRoot, "dist/__tests__");
const srcDir = path.join(zarritaRoot, "dist/src");
// The conformance fixtures (`$ZARR_FIXTURES`, set by zarrita-suite.test.ts from @z/test-utils,
// or ../shared/fixtures beside the repository): a config file cannot import TypeScript.
const fixturesRoot =
  process.env.ZARR_FIXTURES ?? path.resolve(packageRoot, "../../../shared/fixtures");
const conditions = ["source", "node", "import", "module", "default"];

/** A test file's name relative to dist/__tests__. */
function testName(id: string): string | undefined {
  const file = id.split("?")[0] as string;
  return file.startsWith(`${testsDir}/`) ? file.slice(testsDir.length + 1) : undefined;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * Marks one test or describe block (by its title as written in the source) skipped; it must
 * be there exactly once.
 */
function skipTest(code: string, file: string, title: string): string {
  const literal = `(?<quote>["'\`])${escapeRegExp(title)}\\k<quote>`;
  const direct = new RegExp(`\\b(describe|it|test)\\(\\s*${literal}`, "g");
  const matches = [...code.matchAll(direct)];
  if (matches.length === 1) {
    const at = (matches[0]?.index ?? 0) + (matches[0]?.[1]?.length ?? 0);
    return `${code.slice(0, at)}.skip${code.slice(at)}`;
  }
  // it.each([...])("title", ...): skip the `.each` that this title follows.
  const titled = [...code.matchAll(new RegExp(`\\)\\(\\s*${literal}`, "g"))];
  if (matches.length === 0 && titled.length === 1) {
    const before = code.slice(0, titled[0]?.index);
    const callees = ["it.each(", "test.each(", "describe.each("];
    const each = Math.max(...callees.map((callee) => before.lastIndexOf(callee)));
    if (each >= 0) {
      const dot = code.indexOf(".each(", each);
      return `${code.slice(0, dot)}.skip${code.slice(dot)}`;
    }
  }
  throw new Error(
    `exclusions.ts: the test ${JSON.stringify(title)} is not in ${file} exactly once`,
  );
}

function zarritaSuite(): Plugin {
  return {
    name: "zarrita-suite",
    enforce: "pre",
    async resolveId(source, importer) {
      const from = importer && testName(importer);
      if (from === undefined) return null;
      if (source === "tintype") return path.join(here, "tintype.ts");
      if (excludedFiles[from] !== undefined || !source.startsWith(".")) return null;
      const target = path.resolve(path.dirname(importer as string), source);
      if (!target.startsWith(`${srcDir}/`)) return null;
      const internal = target.slice(srcDir.length + 1);
      if (absentModules[internal] !== undefined) return path.join(here, "absent-module.ts");
      const mapped = moduleMap[internal];
      if (mapped === undefined) {
        throw new Error(
          `${from} imports zarrita's ${target.slice(srcDir.length + 1)}, which has no counterpart: exclude the file in exclusions.ts`,
        );
      }
      return path.join(packageRoot, mapped);
    },
    transform(code, id) {
      const file = testName(id);
      if (file === undefined) return null;
      let out = code;
      if (excludedFiles[file] !== undefined) {
        // Collected (so counted) but not run: every test of the file is skipped.
        out = out.replace(/\b(it|test)(\.each)?\(/g, "$1.skip$2(");
      } else {
        for (const title of Object.keys(excludedTests[file] ?? {}))
          out = skipTest(out, file, title);
        for (const title of Object.keys(excludedBlocks[file] ?? {}))
          out = skipTest(out, file, title);
      }
      // The tests reach their repository's fixtures folder with `../` from their own folder
      // (through path.join as well as path.resolve): point that relative path at ours.
      const fixtures = path.relative(
        path.dirname(id.split("?")[0] as string),
        path.join(fixturesRoot, "zarrita"),
      );
      out = out.replace(
        /(["'])(?:\.\.\/)+fixtures\//g,
        (_, quote: string) => `${quote}${fixtures}/`,
      );
      return { code: out, map: null };
    },
  };
}

export default defineConfig({
  plugins: [zarritaSuite()],
  resolve: { conditions },
  ssr: { resolve: { conditions, externalConditions: conditions } },
  server: { fs: { strict: false } },
  test: {
    root: testsDir,
    dir: testsDir,
    include: ["**/*.test.js"],
    exclude: [],
    testTimeout: 60_000,
    pool: "forks",
    server: { deps: { inline: [/zarrita[\\/]dist[\\/]__tests__/] } },
  },
});

/** The version of zarrita whose tests run. */
export const zarritaVersion: string = JSON.parse(
  readFileSync(path.join(zarritaRoot, "package.json"), "utf8"),
).version;
