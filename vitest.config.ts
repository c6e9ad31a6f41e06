import { defineConfig } from "vitest/config";

// Tests run against the TypeScript sources: the "source" export condition of every workspace
// package points at src/, so no build is needed between an edit and a test run.
const conditions = ["source", "node", "import", "module", "default"];

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions, externalConditions: conditions } },
  test: {
    include: [
      "packages/*/test/**/*.test.ts",
      "bench/test/**/*.test.ts",
      "examples/test/**/*.test.ts",
      "tools/api/**/*.test.ts",
      "tools/docs/**/*.test.ts",
      "conformance/**/*.test.ts",
    ],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
  },
});
