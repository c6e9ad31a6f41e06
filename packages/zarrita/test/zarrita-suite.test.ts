import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { fixturesDir, haveFixtures, repositoryRoot, tempDir } from "@z/test-utils";
import { expect, test } from "vitest";
import { excludedBlocks, excludedFiles, excludedTests } from "./zarrita-suite/exclusions.js";

// zarrita's own test suite (the compiled tests of the zarrita package in devDependencies) run
// against @z/zarrita, in a vitest process of its own (zarrita-suite/vitest.config.ts maps the
// tests' imports to this package and skips the exclusions). Every test that is not excluded
// must pass; the count is printed for the record.

const config = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  "zarrita-suite/vitest.config.ts",
);
const vitest = path.join(repositoryRoot, "node_modules/vitest/vitest.mjs");

interface JsonReport {
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests: number;
  numTodoTests: number;
  numTotalTests: number;
  testResults: {
    name: string;
    status: string;
    message: string;
    assertionResults: { fullName: string; status: string; failureMessages: string[] }[];
  }[];
}

test.skipIf(!haveFixtures("zarrita-suite"))(
  "zarrita 0.7.5's test suite passes against @z/zarrita, less the listed exclusions",
  async () => {
    const { dir, remove } = tempDir("z-zarrita-suite-");
    try {
      const output = path.join(dir, "report.json");
      const env = { ...process.env, ZARR_FIXTURES: fixturesDir };
      const args = [vitest, "run", "--config", config, "--reporter=json", `--outputFile=${output}`];
      // A failing suite exits non-zero: the report says why, so read it either way.
      await promisify(execFile)(process.execPath, args, { env, maxBuffer: 64 << 20 }).catch(
        (err: { stderr?: string }) => console.error(err.stderr?.slice(-4000)),
      );
      const report = JSON.parse(readFileSync(output, "utf8")) as JsonReport;
      const failures = report.testResults.flatMap((file) => [
        ...(file.status === "failed" && file.assertionResults.length === 0
          ? [`${path.basename(file.name)}: ${file.message}`]
          : []),
        ...file.assertionResults
          .filter((t) => t.status === "failed")
          .map((t) => `${path.basename(file.name)} > ${t.fullName}: ${t.failureMessages[0]}`),
      ]);
      expect(failures).toEqual([]);
      // Skipped tests are exactly the excluded ones: the suite itself skips none.
      const skippedFiles = report.testResults.filter((file) =>
        file.assertionResults.every((t) => t.status !== "passed"),
      );
      expect(skippedFiles.length).toBe(Object.keys(excludedFiles).length);
      expect(report.numTodoTests).toBe(0);
      const passed = report.numPassedTests;
      const excluded = report.numPendingTests;
      const singles = Object.values(excludedTests).reduce((n, t) => n + Object.keys(t).length, 0);
      const blocks = Object.values(excludedBlocks).reduce((n, t) => n + Object.keys(t).length, 0);
      console.log(
        `zarrita 0.7.5 test suite against @z/zarrita: ${passed} passed / ${excluded} excluded ` +
          `(${Object.keys(excludedFiles).length} files, ${blocks} describe blocks and ${singles} ` +
          `tests excluded; reasons in packages/zarrita/test/zarrita-suite/exclusions.ts)`,
      );
      expect(passed).toBeGreaterThan(0);
      // The guide states the count: it must be this run's.
      const guide = readFileSync(path.join(repositoryRoot, "docs/zarrita.md"), "utf8");
      expect(guide).toContain(`**${passed} pass, ${excluded} are excluded**`);
    } finally {
      remove();
    }
  },
  600_000,
);
