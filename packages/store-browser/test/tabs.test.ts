import path from "node:path";
import { fileURLToPath } from "node:url";
import { bundleForBrowser, chromiumAvailableOrWarn, openChromiumPage } from "@z/test-utils";
import { describe, expect, it } from "vitest";

const here = path.dirname(fileURLToPath(import.meta.url));
const hasChromium = chromiumAvailableOrWarn("store-browser tabs");

describe.skipIf(!hasChromium)("conditional writes across tabs", () => {
  it.each(["indexeddb", "opfs"])(
    "%s: three tabs incrementing one counter lose no increment",
    async (kind) => {
      const first = await openChromiumPage(
        await bundleForBrowser(path.join(here, "browser/tabs-entry.ts")),
      );
      try {
        const tabs = [first, await first.openTab(), await first.openTab()];
        await first.call("__reset", kind);
        const times = 40;
        const conflicts = await Promise.all(
          tabs.map((tab) => tab.call<number>("__increment", { kind, times })),
        );
        expect(await first.call("__count", kind)).toBe(tabs.length * times);
        console.log(
          `[store-browser tabs] ${kind}: conflicts retried per tab ${conflicts.join(", ")}`,
        );
        for (const tab of tabs) expect(tab.errors).toEqual([]);
      } finally {
        await first.close();
      }
    },
    180_000,
  );
});
