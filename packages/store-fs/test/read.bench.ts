/**
 * FsStore.get against a plain fs.readFile of the same file (the floor for a whole-file read).
 * Run with `pnpm vitest bench --run packages/store-fs/test/read.bench.ts`.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { readFile } from "node:fs/promises";
import * as os from "node:os";
import * as path from "node:path";
import { FsStore } from "@z/store-fs";
import { afterAll, bench, describe } from "vitest";

const root = mkdtempSync(path.join(os.tmpdir(), "z-read-bench-"));
const store = new FsStore(root, { fsync: false });
afterAll(() => rmSync(root, { recursive: true, force: true }));

for (const size of [64 * 1024, 1024 * 1024, 16 * 1024 * 1024]) {
  const key = `c/${size}`;
  await store.set(key, new Uint8Array(size).fill(3));
  describe(`whole ${size / 1024} KiB value`, () => {
    bench("FsStore.get", async () => {
      await store.get(key);
    });
    bench("fs.readFile", async () => {
      await readFile(store.pathOf(key));
    });
    bench("FsStore.get of the last 4 KiB", async () => {
      await store.get(key, { range: { suffix: 4096 } });
    });
  });
}
