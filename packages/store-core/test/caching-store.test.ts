import {
  ByteLruCache,
  CachingStore,
  type GetOptions,
  LoggingStore,
  MapStore,
  type SetOptions,
} from "@z/store-core";
import { describeStoreContract, expectBytes, patternBytes } from "@z/store-core/testing";
import { describe, expect, it } from "vitest";

describeStoreContract(
  "CachingStore over MapStore",
  (entries) => new CachingStore(new MapStore(new Map(entries))),
  {
    freshReadBuffers: false,
  },
);

describeStoreContract(
  "CachingStore with a tiny bound over MapStore",
  (entries) =>
    new CachingStore(new MapStore(new Map(entries)), { maxBytes: 600, maxEntryBytes: 300 }),
);

describeStoreContract(
  "CachingStore over a get-only store",
  (entries) => {
    const inner = new MapStore(new Map(entries));
    return new CachingStore({
      get: (key: string, options?: GetOptions) => inner.get(key, options),
    });
  },
  { writable: false, listable: false },
);

function logged(entries: [string, Uint8Array][] = []) {
  const inner = new LoggingStore(new MapStore(new Map(entries)));
  return {
    inner,
    reads: () => inner.requests.filter((r) => r.method === "get" || r.method === "getRanges"),
  };
}

describe("ByteLruCache", () => {
  it("evicts the least recently used entries once the byte bound is exceeded", () => {
    const evicted: string[] = [];
    const cache = new ByteLruCache<string, Uint8Array>(
      100,
      (v) => v.length,
      (k) => evicted.push(k),
    );
    cache.set("a", new Uint8Array(40));
    cache.set("b", new Uint8Array(40));
    cache.get("a"); // b is now the oldest
    cache.set("c", new Uint8Array(40));
    expect(evicted).toEqual(["b"]);
    expect([...cache.keys()]).toEqual(["a", "c"]);
    expect(cache.bytes).toBe(80);
    expect(cache.set("huge", new Uint8Array(101))).toBe(false);
    expect(cache.bytes).toBe(80);
    cache.set("a", new Uint8Array(10)); // replacing counts the new size only
    expect(cache.bytes).toBe(50);
  });
});

describe("CachingStore", () => {
  it("reads versions from the wrapped store, never from the cache", async () => {
    const map = new MapStore(new Map([["k", Uint8Array.of(1)]]));
    const store = new CachingStore(map);
    expect(store.conditionalWrites).toBe(true);
    expectBytes(await store.get("k"), Uint8Array.of(1)); // now cached
    const before = (await store.getVersioned!("k"))!.version;
    await map.set("k", Uint8Array.of(2)); // behind the cache's back
    const after = await store.getVersioned!("k");
    expectBytes(after?.value, Uint8Array.of(2));
    expect(after?.version).not.toBe(before);
    // A write conditional on the stale version is refused by the wrapped store.
    await expect(store.set!("k", Uint8Array.of(3), { ifMatch: before })).rejects.toThrow(/refused/);
    // And one on the fresh version goes through, and leaves no stale cached value.
    await store.set!("k", Uint8Array.of(4), { ifMatch: after!.version });
    expectBytes(await store.get("k"), Uint8Array.of(4));
  });

  it("serves repeated reads, and every range of a cached whole value, from the cache", async () => {
    const value = patternBytes(1000, 1);
    const { inner, reads } = logged([["k", value]]);
    const store = new CachingStore(inner);
    expectBytes(await store.get("k"), value);
    expectBytes(await store.get("k"), value);
    expectBytes(
      await store.get("k", { range: { offset: 10, length: 20 } }),
      value.subarray(10, 30),
    );
    expectBytes(await store.get("k", { range: { suffix: 7 } }), value.subarray(-7));
    expect(reads()).toHaveLength(1);
    expect(store.stats).toEqual({ hits: 3, misses: 1 });
  });

  it("caches ranges by their exact bounds", async () => {
    const value = patternBytes(1000, 2);
    const { inner, reads } = logged([["k", value]]);
    const store = new CachingStore(inner);
    const range = { offset: 100, length: 50 };
    await store.get("k", { range });
    expectBytes(await store.get("k", { range }), value.subarray(100, 150));
    expect(reads()).toHaveLength(1);
    await store.get("k", { range: { offset: 100, length: 51 } });
    expect(reads()).toHaveLength(2);
  });

  it("getRanges fetches only the ranges it does not hold", async () => {
    const value = patternBytes(1000, 3);
    const { inner } = logged([["k", value]]);
    const store = new CachingStore(inner);
    await store.get("k", { range: { offset: 0, length: 10 } });
    inner.clear();
    const parts = await store.getRanges("k", [
      { offset: 0, length: 10 },
      { offset: 500, length: 10 },
    ]);
    expectBytes(parts![0], value.subarray(0, 10));
    expectBytes(parts![1], value.subarray(500, 510));
    expect(inner.requests).toHaveLength(1);
    expect(inner.requests[0].range).toEqual([{ offset: 500, length: 10 }]);
    expect(await store.getRanges("missing", [{ offset: 0, length: 1 }])).toBeUndefined();
  });

  it("stays within its byte bound and passes huge values through", async () => {
    const entries: [string, Uint8Array][] = Array.from({ length: 20 }, (_, i) => [
      `k${i}`,
      patternBytes(100, i),
    ]);
    entries.push(["huge", patternBytes(5000, 99)]);
    const { inner, reads } = logged(entries);
    const store = new CachingStore(inner, { maxBytes: 1000 });
    for (const [key] of entries) await store.get(key);
    expect(store.cachedBytes).toBeLessThanOrEqual(1000);
    expect(store.cachedBytes).toBe(1000);
    const before = reads().length;
    await store.get("k19"); // recent: cached
    await store.get("huge"); // larger than maxEntryBytes: never cached
    await store.get("k0"); // evicted long ago
    expect(reads().length - before).toBe(2);
  });

  it("drops cached values on writes and deletes made through it", async () => {
    const { inner } = logged([
      ["a/x", Uint8Array.of(1)],
      ["a/y", Uint8Array.of(2)],
      ["b", Uint8Array.of(3)],
    ]);
    const store = new CachingStore(inner);
    for (const key of ["a/x", "a/y", "b"]) await store.get(key);
    await store.get("b", { range: { offset: 0, length: 1 } });
    await store.set!("b", Uint8Array.of(4, 5));
    expectBytes(await store.get("b"), Uint8Array.of(4, 5));
    await store.delete!("b");
    expect(await store.get("b")).toBeUndefined();
    await store.deletePrefix!("a/");
    expect(await store.get("a/x")).toBeUndefined();
    expect(await store.get("a/y")).toBeUndefined();
    expect(await store.setIfNotExists!("a/x", Uint8Array.of(9))).toBe(true);
    expectBytes(await store.get("a/x"), Uint8Array.of(9));
  });

  it("does not cache a read that raced with a write", async () => {
    const map = new MapStore(new Map([["k", Uint8Array.of(1)]]));
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    // The read returns the old value after the write has landed.
    const slowReader = {
      get: async (key: string, options?: GetOptions) => {
        const value = await map.get(key, options);
        await gate;
        return value;
      },
      set: (key: string, value: Uint8Array, options?: SetOptions) => map.set(key, value, options),
      delete: (key: string) => map.delete(key),
      deletePrefix: (prefix: string) => map.deletePrefix(prefix),
    };
    const store = new CachingStore(slowReader);
    const stale = store.get("k");
    await store.set!("k", Uint8Array.of(2));
    release();
    expectBytes(await stale, Uint8Array.of(1), "the racing read");
    expectBytes(await store.get("k"), Uint8Array.of(2), "after the write");
  });

  it("returns memory the caller may change without changing the cache", async () => {
    const value = patternBytes(64, 4);
    const store = new CachingStore(new MapStore(new Map([["k", value.slice()]])));
    (await store.get("k"))!.fill(0);
    (await store.get("k"))!.fill(0);
    expectBytes(await store.get("k"), value);
  });
});
