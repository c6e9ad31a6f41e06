import {
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import * as path from "node:path";
import { tempDir } from "@z/test-utils";
import { createArray, FsStore, isZarrError } from "@z/zarr";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

let sandbox: { dir: string; remove: () => void };
beforeEach(() => {
  sandbox = tempDir("z-fs-outside-");
});
afterEach(() => sandbox.remove());

/** Every file under `dir` with its bytes and modification time, to prove nothing changed. */
function snapshot(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const visit = (at: string) => {
    for (const name of readdirSync(at).sort()) {
      const full = path.join(at, name);
      const stats = statSync(full);
      if (stats.isDirectory()) {
        out.set(full, "<dir>");
        visit(full);
      } else out.set(full, `${readFileSync(full).toString("base64")} @${stats.mtimeMs}`);
    }
  };
  visit(dir);
  return out;
}

async function expectRefused(call: () => Promise<unknown>): Promise<void> {
  const error = await call().then(
    () => expect.fail("expected the operation to be refused"),
    (e: unknown) => e,
  );
  expect(isZarrError(error), String(error)).toBe(true);
  expect(error).toMatchObject({ name: "OutsideRootError" });
}

describe.skipIf(process.platform === "win32")(
  "arrays in an FsStore whose chunk folder is a symlink out of the root",
  () => {
    it("set, fill-value set, resize and deletePrefix change nothing outside", async () => {
      const root = path.join(sandbox.dir, "store.zarr");
      const outside = path.join(sandbox.dir, "outside");
      mkdirSync(path.join(outside, "0"), { recursive: true });
      // Files named like the chunks the array would write or delete there.
      for (const name of ["0/0", "0/1", "1"]) writeFileSync(path.join(outside, name), "precious");
      const store = new FsStore(root);
      const arr = await createArray(store, {
        path: "arr",
        shape: [8, 8],
        chunks: [4, 4],
        dtype: "int16",
        fillValue: 0,
        compressors: null,
      });
      symlinkSync(outside, path.join(root, "arr", "c"), "dir");
      const before = snapshot(outside);

      await expectRefused(() => arr.set(null, 5)); // writes chunks
      await expectRefused(() => arr.set(null, 0)); // fill value: deletes chunks
      await expectRefused(() => arr.resize([2, 2])); // deletes chunks out of the new shape
      await expectRefused(() => store.deletePrefix("arr/c/0/"));
      expect(snapshot(outside)).toEqual(before);

      // Reads see no chunk there (missing chunks read as the fill value, present ones refuse).
      await expectRefused(() => arr.get());
      // Removing the whole array removes the link, not the folder it points to.
      await store.deletePrefix("arr/");
      expect(snapshot(outside)).toEqual(before);
      expect(readdirSync(root)).not.toContain("arr");
    });
  },
);
