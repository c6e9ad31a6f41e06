import { mkdirSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { collectKeys, isZarrError } from "@z/store-core";
import { FsStore } from "@z/store-fs";
import { tempDir } from "@z/test-utils";
import * as fc from "fast-check";
import { describe, expect, it } from "vitest";
import { treeOf } from "./support.js";

/**
 * Random sessions against a root holding links out of it (to a folder and to a file) and links
 * that stay inside: whatever the operations, nothing outside changes, every failure is a typed
 * error, and listings never show a key reached through a link out of the root.
 */
const segment = fc.constantFrom("a", "b", "out", "outfile", "in");
const key = fc.array(segment, { minLength: 1, maxLength: 4 }).map((s) => s.join("/"));
const operation = fc.oneof(
  fc.record({ op: fc.constant("set" as const), key, byte: fc.nat(255) }),
  fc.record({ op: fc.constant("setIfNotExists" as const), key, byte: fc.nat(255) }),
  fc.record({ op: fc.constant("delete" as const), key }),
  fc.record({ op: fc.constant("deletePrefix" as const), key }),
  fc.record({ op: fc.constant("get" as const), key }),
  fc.record({ op: fc.constant("list" as const) }),
);

describe.skipIf(process.platform === "win32")("FsStore with links out of its root", () => {
  it("random sessions change nothing outside, and fail only with typed errors", async () => {
    const sandbox = tempDir("z-store-fs-prop-");
    try {
      const root = path.join(sandbox.dir, "root");
      const outside = path.join(sandbox.dir, "outside");
      await fc.assert(
        fc.asyncProperty(fc.array(operation, { maxLength: 25 }), async (operations) => {
          rmSync(root, { recursive: true, force: true });
          rmSync(outside, { recursive: true, force: true });
          mkdirSync(path.join(outside, "a", "b"), { recursive: true });
          writeFileSync(path.join(outside, "a", "b", "x"), "outside");
          writeFileSync(path.join(outside, "file"), "outside file");
          mkdirSync(path.join(root, "a"), { recursive: true });
          symlinkSync(outside, path.join(root, "out"), "dir");
          symlinkSync(path.join(outside, "a"), path.join(root, "a", "out"), "dir");
          symlinkSync(path.join(outside, "file"), path.join(root, "a", "outfile"));
          symlinkSync(path.join(root, "a"), path.join(root, "in"), "dir");
          const before = treeOf(outside);
          const store = new FsStore(root);
          for (const step of operations) {
            try {
              if (step.op === "set") await store.set(step.key, Uint8Array.of(step.byte));
              else if (step.op === "setIfNotExists")
                await store.setIfNotExists(step.key, Uint8Array.of(step.byte));
              else if (step.op === "delete") await store.delete(step.key);
              else if (step.op === "deletePrefix") await store.deletePrefix(`${step.key}/`);
              else if (step.op === "get") await store.get(step.key);
              else {
                const realRoot = realpathSync(root);
                for (const listed of await collectKeys(store.list())) {
                  const real = realpathSync(path.join(root, ...listed.split("/")));
                  expect(real.startsWith(realRoot + path.sep), listed).toBe(true);
                }
              }
            } catch (error) {
              expect(isZarrError(error), `${JSON.stringify(step)}: ${error}`).toBe(true);
            }
            expect(treeOf(outside), JSON.stringify(step)).toEqual(before);
          }
        }),
        { numRuns: 40 },
      );
    } finally {
      sandbox.remove();
    }
  });
});
