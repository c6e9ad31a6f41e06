import path from "node:path";
import { fileURLToPath } from "node:url";
import { bundleForBrowser, chromiumAvailableOrWarn, runInChromium } from "@z/test-utils";
import { describe, expect, it } from "vitest";

const here = path.dirname(fileURLToPath(import.meta.url));
const hasChromium = chromiumAvailableOrWarn("store-browser specifics");

describe.skipIf(!hasChromium)("OPFSStore and IndexedDBStore specifics in Chromium", () => {
  it("temporary files, value/folder clashes, pruning, atomic new keys, typed errors", async () => {
    const run = await runInChromium<Record<string, unknown>>(
      await bundleForBrowser(path.join(here, "browser/specifics-entry.ts")),
    );
    expect(run.errors).toEqual([]);
    expect(run.result).toEqual({
      leftoverListed: ["g/zarr.json"],
      leftoverDir: { keys: ["g/zarr.json"], prefixes: [] },
      leftoverGet: "InvalidKeyError",
      underValue: "BrowserStorageError",
      overFolder: "BrowserStorageError",
      folderAsKey: { get: null, has: false },
      afterFolderDelete: [3],
      rootAfterPrune: ["f", "g", "v"],
      // Only "missing" or the whole value: never an empty or partial file.
      seen: expect.arrayContaining(["1048576"]),
      noLocks: {
        conditionalWrites: false,
        ifNoneMatch: "UnsupportedOperationError",
        plainSet: "resolved",
      },
      ranges: [
        [2, 3, 4],
        [8, 9],
      ],
      listing: { keys: [], prefixes: ["a/"] },
      closed: "BrowserStorageError",
    });
    expect((run.result.seen as string[]).every((s) => s === "missing" || s === "1048576")).toBe(
      true,
    );
  }, 180_000);
});
