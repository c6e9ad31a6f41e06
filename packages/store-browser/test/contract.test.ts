import path from "node:path";
import { fileURLToPath } from "node:url";
import {
  bundleForBrowser,
  chromiumAvailableOrWarn,
  runInChromium,
  type ShimTestResult,
} from "@z/test-utils";
import { describe, expect, it } from "vitest";

// The store contract suite runs in Chromium (IndexedDB and OPFS exist only there); each of its
// cases is reported here as one vitest test that fails when the case failed in the page.
const here = path.dirname(fileURLToPath(import.meta.url));

const hasChromium = chromiumAvailableOrWarn("store-browser");

const run = hasChromium
  ? await runInChromium<ShimTestResult[]>(
      await bundleForBrowser(path.join(here, "browser/contract-entry.ts"), { shimVitest: true }),
      null,
      { timeoutMs: 600_000 },
    )
  : undefined;

describe.skipIf(!run)("store contract in Chromium", () => {
  it("the page ran the suite without uncaught errors", () => {
    expect(run?.errors).toEqual([]);
    // Both stores registered their cases (a bundle that dropped one would pass vacuously).
    for (const store of ["IndexedDBStore", "OPFSStore"])
      expect(
        run?.result.filter((r) => r.name.includes(`store contract: ${store} >`)).length,
      ).toBeGreaterThan(30);
  });

  for (const result of run?.result ?? []) {
    const name = result.name.replace(/^store contract: /, "");
    if (result.status === "skipped") it.skip(`${name} (${result.message ?? "skipped"})`, () => {});
    else
      it(name, () => {
        if (result.status === "failed") throw new Error(result.message);
      });
  }
});
