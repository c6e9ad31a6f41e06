import {
  ContainsArrayError,
  ContainsGroupError,
  createArray,
  createGroup,
  openArray,
  type ZarrArray,
} from "@z/array";
import { withKeyLock } from "@z/array/internal";
import { slice } from "@z/indexing";
import {
  ConflictError,
  MapStore,
  type Readable,
  type SetOptions,
  TooManyConflictsError,
  type Writable,
} from "@z/store-core";
import { describe, expect, it } from "vitest";
import { updateKey } from "../src/write/read-modify-write.js";

const SHAPE = [10, 9, 8];
const CHUNKS = [2, 3, 4];

/** Every inner chunk's region of a [10, 9, 8] array in [2, 3, 4] chunks, with a value each. */
function chunkRegions(): { region: ReturnType<typeof slice>[]; value: number }[] {
  const regions = [];
  let value = 1;
  for (let i = 0; i < SHAPE[0]; i += CHUNKS[0])
    for (let j = 0; j < SHAPE[1]; j += CHUNKS[1])
      for (let k = 0; k < SHAPE[2]; k += CHUNKS[2])
        regions.push({
          region: [slice(i, i + CHUNKS[0]), slice(j, j + CHUNKS[1]), slice(k, k + CHUNKS[2])],
          value: value++,
        });
  return regions;
}

/** The value each element should hold after every region got its value. */
function expected(): number[] {
  const out = new Array<number>(SHAPE[0] * SHAPE[1] * SHAPE[2]).fill(0);
  for (const { region, value } of chunkRegions()) {
    const [a, b, c] = region as { start: number; stop: number }[];
    for (let i = a.start; i < a.stop; i++)
      for (let j = b.start; j < b.stop; j++)
        for (let k = c.start; k < c.stop; k++) out[(i * SHAPE[1] + j) * SHAPE[2] + k] = value;
  }
  return out;
}

/** A MapStore that counts the conditional writes it refused. */
class CountingStore extends MapStore {
  conflicts = 0;
  override async set(key: string, value: Uint8Array, options?: SetOptions): Promise<void> {
    try {
      await super.set(key, value, options);
    } catch (error) {
      if (error instanceof ConflictError) this.conflicts++;
      throw error;
    }
  }
}

/** Hides a store's conditional writes, so only the in-process lock protects its updates. */
function withoutConditionalWrites(inner: MapStore): Readable & Writable {
  return {
    get: (key, options) => inner.get(key, options),
    set: (key, value, options) => inner.set(key, value, options),
    delete: (key, options) => inner.delete(key, options),
    deletePrefix: (prefix, options) => inner.deletePrefix(prefix, options),
  };
}

const layouts = {
  sharded: { shards: [4, 6, 8], chunks: CHUNKS },
  plain: { chunks: [4, 6, 8] },
} as const;

describe("concurrent sets of one array lose no update", () => {
  for (const [name, layout] of Object.entries(layouts)) {
    for (const [storeName, makeStore] of [
      ["conditional store", () => new MapStore()],
      ["store without conditional writes", () => withoutConditionalWrites(new MapStore())],
    ] as const) {
      it(`${name}, ${storeName}: one set per inner chunk at once`, async () => {
        const store = makeStore();
        const arr = await createArray(store, { shape: SHAPE, ...layout, dtype: "int32" });
        await Promise.all(chunkRegions().map(({ region, value }) => arr.set(region, value)));
        expect(Array.from((await arr.get()).data)).toEqual(expected());
      });
    }

    it(`${name}: the same sets through two array objects of the same array`, async () => {
      const store = new MapStore();
      await createArray(store, { shape: SHAPE, ...layout, dtype: "int32" });
      const one = await openArray(store);
      const two = await openArray(store);
      // The first read fills each object's shard index cache; the writes must make it stale.
      await one.get();
      await two.get();
      await Promise.all(
        chunkRegions().map(({ region, value }) => (value % 2 ? one : two).set(region, value)),
      );
      expect(Array.from((await one.get()).data)).toEqual(expected());
      expect(Array.from((await two.get()).data)).toEqual(expected());
    });

    it(`${name}: writers with separate locks still lose nothing, through conditional writes`, async () => {
      // Two store objects over one Map share the data but not the in-process lock, as two
      // processes over one folder would: only versions and ifMatch keep the updates.
      const first = new CountingStore();
      const second = new CountingStore(first.map);
      const arr = await createArray(first, { shape: SHAPE, ...layout, dtype: "int32" });
      const other = await openArray(second);
      await Promise.all(
        chunkRegions().map(({ region, value }) => (value % 2 ? arr : other).set(region, value)),
      );
      expect(Array.from((await arr.get()).data)).toEqual(expected());
      expect(first.conflicts + second.conflicts).toBeGreaterThan(0);
    });
  }

  it("a chunk left all fill value is deleted only if nobody changed it meanwhile", async () => {
    const first = new CountingStore();
    const second = new CountingStore(first.map);
    const arr = await createArray(first, { shape: [4], chunks: [4], dtype: "int32" });
    const other = await openArray(second);
    await arr.set([slice(0, 2)], 5);
    // Clearing 0..1 leaves the chunk all fill value (a delete); setting 2..3 races it.
    await Promise.all([arr.set([slice(0, 2)], 0), other.set([slice(2, 4)], 7)]);
    const data = Array.from((await arr.get()).data);
    expect(data.slice(2)).toEqual([7, 7]);
    expect(data.slice(0, 2)).toEqual([0, 0]);
  });
});

describe("shard index cache", () => {
  it("a write through another array object makes a cached shard index stale", async () => {
    const store = new MapStore();
    await createArray(store, { shape: [8], shards: [4], chunks: [2], dtype: "int32" });
    const reader = await openArray(store);
    const writer = await openArray(store);
    await writer.set([slice(0, 2)], 1);
    expect(Array.from((await reader.get()).data)).toEqual([1, 1, 0, 0, 0, 0, 0, 0]);
    // The shard's layout changes: another inner chunk, and the first one moves.
    await writer.set([slice(0, 4)], 2);
    await writer.set([slice(4, 6)], 3);
    expect(Array.from((await reader.get()).data)).toEqual([2, 2, 2, 2, 3, 3, 0, 0]);
  });
});

describe("updateKey", () => {
  it("gives up with TooManyConflictsError when every conditional write conflicts", async () => {
    class AlwaysConflicting extends MapStore {
      override async set(key: string): Promise<void> {
        throw new ConflictError(key);
      }
    }
    const store = new AlwaysConflicting();
    let runs = 0;
    const attempt = updateKey(
      store,
      "a/c/0",
      async () => {
        runs++;
        return new Uint8Array([1]);
      },
      { maxAttempts: 3 },
    );
    await expect(attempt).rejects.toThrow(TooManyConflictsError);
    await expect(attempt).rejects.toThrow(/"a\/c\/0".*3 attempts/);
    expect(runs).toBe(3);
  });

  it("runs the updates of one key one at a time, and of different keys together", async () => {
    const store = new MapStore();
    const order: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const first = withKeyLock(store, "k", async () => {
      order.push("first start");
      await gate;
      order.push("first end");
    });
    const second = withKeyLock(store, "k", async () => {
      order.push("second");
    });
    const other = withKeyLock(store, "other", async () => {
      order.push("other key");
    });
    await other;
    expect(order).toEqual(["first start", "other key"]);
    release();
    await Promise.all([first, second]);
    expect(order).toEqual(["first start", "other key", "first end", "second"]);
  });

  it("a failed update does not block the next one", async () => {
    const store = new MapStore();
    const failing = updateKey(store, "k", async () => {
      throw new Error("boom");
    });
    const next = updateKey(store, "k", async () => new Uint8Array([2]));
    await expect(failing).rejects.toThrow("boom");
    await next;
    expect(store.map.get("k")).toEqual(new Uint8Array([2]));
  });
});

describe("racing creators", () => {
  for (const [name, makeStore] of [
    ["MapStore (setIfNotExists)", () => new MapStore()],
    ["a store with only conditional writes", () => withoutSetIfNotExists(new MapStore())],
    ["a store with neither", () => withoutConditionalWrites(new MapStore())],
  ] as const) {
    it(`${name}: of two createArray / createGroup at one path, one wins`, async () => {
      const store = makeStore();
      const arrays = await Promise.allSettled([
        createArray(store, { path: "a", shape: [2], dtype: "int8" }),
        createArray(store, { path: "a", shape: [3], dtype: "int8" }),
      ]);
      expect(arrays.map((r) => r.status).sort()).toEqual(["fulfilled", "rejected"]);
      const lost = arrays.find((r) => r.status === "rejected") as PromiseRejectedResult;
      expect(lost.reason).toBeInstanceOf(ContainsArrayError);
      const won = arrays.find((r) => r.status === "fulfilled") as PromiseFulfilledResult<ZarrArray>;
      expect((await openArray(store, { path: "a" })).shape).toEqual(won.value.shape);

      const groups = await Promise.allSettled([
        createGroup(store, { path: "g", attributes: { n: 1 } }),
        createGroup(store, { path: "g", attributes: { n: 2 } }),
      ]);
      expect(groups.map((r) => r.status).sort()).toEqual(["fulfilled", "rejected"]);
      const lostGroup = groups.find((r) => r.status === "rejected") as PromiseRejectedResult;
      expect(lostGroup.reason).toBeInstanceOf(ContainsGroupError);
    });
  }
});

/** A MapStore that offers conditional writes but no setIfNotExists. */
function withoutSetIfNotExists(inner: MapStore): Readable & Writable {
  return {
    get: (key, options) => inner.get(key, options),
    getVersioned: (key, options) => inner.getVersioned(key, options),
    set: (key, value, options) => inner.set(key, value, options),
    delete: (key, options) => inner.delete(key, options),
    deletePrefix: (prefix, options) => inner.deletePrefix(prefix, options),
    conditionalWrites: true,
  };
}
