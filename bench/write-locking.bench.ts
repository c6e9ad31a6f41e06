/**
 * What "writes that never lose updates" cost: full and partial writes of an array with the
 * store's conditional path (FsStore: a lock file per write, versioned reads and an If-Match
 * check for read-modify-write; MemoryStore: versions) against the same store without it
 * (FsStore `lockFiles: false`; a MemoryStore whose conditional writes are hidden). The
 * in-process key lock is always on; `withKeyLock` is timed alone at the end. Run with
 * `pnpm vitest bench --run bench/write-locking.bench.ts`.
 */

import { mkdtempSync, rmSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { createArray, type ZarrArray } from "@z/array";
import { withKeyLock } from "@z/array/internal";
import { slice } from "@z/indexing";
import type { Readable, Writable } from "@z/store-core";
import { FsStore } from "@z/store-fs";
import { MemoryStore } from "@z/store-memory";
import { afterAll, beforeAll, bench, describe } from "vitest";

const root = mkdtempSync(path.join(os.tmpdir(), "z-locking-bench-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const SHAPE = [64, 64, 64];
const volume = {
  data: Float32Array.from({ length: 64 ** 3 }, (_, i) => Math.sin(i) * 100),
  shape: SHAPE,
};
/** Touches every chunk without covering any: each chunk is read, changed and written. */
const PARTIAL = [slice(8, 56), slice(8, 56), slice(8, 56)];

/** A MemoryStore with its versions and conditional writes hidden. */
function plainMemory(): Readable & Writable {
  const inner = new MemoryStore();
  return {
    get: (key, options) => inner.get(key, options),
    set: (key, value, options) => inner.set(key, value, options),
    delete: (key, options) => inner.delete(key, options),
    deletePrefix: (prefix, options) => inner.deletePrefix(prefix, options),
  };
}

const stores: Record<string, () => Readable & Writable> = {
  "FsStore, lock files + conditional RMW (default)": () =>
    new FsStore(path.join(root, `locked-${Math.random()}`), { fsync: false }),
  "FsStore, lockFiles: false": () =>
    new FsStore(path.join(root, `unlocked-${Math.random()}`), { fsync: false, lockFiles: false }),
  "MemoryStore, conditional RMW (default)": () => new MemoryStore(),
  "MemoryStore, conditional writes hidden": plainMemory,
};

const layouts = {
  "64 chunks of 16^3 (16 KiB)": { chunks: [16, 16, 16] },
  "8 shards of 32^3 in 16^3 chunks": { shards: [32, 32, 32], chunks: [16, 16, 16] },
};

for (const [layoutName, layout] of Object.entries(layouts)) {
  const arrays = new Map<string, ZarrArray>();
  beforeAll(async () => {
    for (const [name, make] of Object.entries(stores)) {
      const arr = await createArray(make(), { shape: SHAPE, ...layout, dtype: "float32" });
      await arr.set(null, volume);
      arrays.set(name, arr);
    }
  });
  describe(`full write, ${layoutName}`, () => {
    for (const name of Object.keys(stores))
      bench(name, () => arrays.get(name)!.set(null, volume), { time: 2000 });
  });
  describe(`partial write (read-modify-write of every chunk), ${layoutName}`, () => {
    for (const name of Object.keys(stores))
      bench(name, () => arrays.get(name)!.set(PARTIAL, 1.5), { time: 2000 });
  });
}

describe("the in-process key lock alone: 1000 tasks over 64 keys", () => {
  const store = {};
  const task = async () => {};
  bench("direct", async () => {
    await Promise.all(Array.from({ length: 1000 }, () => task()));
  });
  bench("withKeyLock", async () => {
    await Promise.all(
      Array.from({ length: 1000 }, (_, i) => withKeyLock(store, `c/${i % 64}`, task)),
    );
  });
});
