/**
 * ZipStore reads of stored entries in a local zip against FsStore reads of the same bytes in a
 * folder (the floor), with and without the CRC-32 check of whole reads, and a range inside an
 * entry. Run with `pnpm vitest bench --run packages/store-zip/test/read.bench.ts`.
 */
import { mkdtempSync, rmSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { patternBytes } from "@z/store-core/testing";
import { FsStore } from "@z/store-fs";
import { createZipFile, openZipFile } from "@z/store-zip/node";
import { afterAll, bench, describe } from "vitest";

const root = mkdtempSync(path.join(os.tmpdir(), "z-zip-bench-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const folder = new FsStore(path.join(root, "folder"), { fsync: false });
const zipFile = path.join(root, "data.zip");
const writer = await createZipFile(zipFile, { fsync: false });
const sizes = [64 * 1024, 1024 * 1024, 16 * 1024 * 1024];
for (const size of sizes) {
  const value = patternBytes(size, size);
  await folder.set(`c/${size}`, value);
  await writer.set(`c/${size}`, value);
}
await writer.close();
const checked = await openZipFile(zipFile);
const unchecked = await openZipFile(zipFile, { verifyChecksums: false });

for (const size of sizes) {
  const key = `c/${size}`;
  describe(`whole ${size / 1024} KiB value`, () => {
    bench("FsStore.get (folder)", async () => {
      await folder.get(key);
    });
    bench("ZipStore.get (CRC-32 checked)", async () => {
      await checked.get(key);
    });
    bench("ZipStore.get (verifyChecksums: false)", async () => {
      await unchecked.get(key);
    });
    bench("ZipStore.get of 4 KiB in the middle", async () => {
      await checked.get(key, { range: { offset: size >> 1, length: 4096 } });
    });
  });
}
