/**
 * What the fsync in FsStore's atomic writes costs. Run with
 * `pnpm vitest bench --run packages/store-fs/test/fsync.bench.ts`.
 */

import { mkdtempSync, rmSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { FsStore } from "@z/store-fs";
import { afterAll, bench, describe } from "vitest";

const root = mkdtempSync(path.join(os.tmpdir(), "z-fsync-bench-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const stores = {
  fsync: new FsStore(path.join(root, "fsync")),
  "no fsync": new FsStore(path.join(root, "nofsync"), { fsync: false }),
};

for (const size of [4 * 1024, 64 * 1024, 1024 * 1024]) {
  const value = new Uint8Array(size).fill(7);
  for (const inFlight of [1, 8]) {
    describe(`${size / 1024} KiB values, ${inFlight} write(s) in flight`, () => {
      for (const [name, store] of Object.entries(stores)) {
        let i = 0;
        bench(
          name,
          async () => {
            await Promise.all(
              Array.from({ length: inFlight }, () => store.set(`c/${i++ % 64}`, value)),
            );
          },
          { time: 1500 },
        );
      }
    });
  }
}
