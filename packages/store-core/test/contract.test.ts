import {
  type GetOptions,
  LoggingStore,
  MapStore,
  PrefixStore,
  ReadOnlyStore,
  type SetOptions,
} from "@z/store-core";
import { describeStoreContract } from "@z/store-core/testing";
import { describe, expect, it } from "vitest";

describeStoreContract("MapStore", (entries) => new MapStore(new Map(entries)));

describeStoreContract(
  "ReadOnlyStore over MapStore",
  (entries) => new ReadOnlyStore(new MapStore(new Map(entries))),
  {
    writable: "read-only",
  },
);

/** Keys outside the prefix that a PrefixStore must never show, change or delete. */
const OUTSIDE = new Map([
  ["zarr.json", Uint8Array.of(1)],
  ["p/zarr.json", Uint8Array.of(2)],
  ["p/qq/x", Uint8Array.of(3)],
  ["p/x", Uint8Array.of(4)],
  ["x", Uint8Array.of(5)],
]);
const prefixInners = new WeakMap<PrefixStore, MapStore>();

describeStoreContract(
  "PrefixStore over MapStore",
  (entries) => {
    const inner = new MapStore(new Map(OUTSIDE));
    for (const [key, value] of entries) inner.map.set(`p/q/${key}`, value);
    const store = new PrefixStore(inner, "/p/q/");
    prefixInners.set(store, inner);
    return store;
  },
  {
    dispose(store) {
      // Whatever the test did, the keys outside the prefix are untouched.
      const inner = prefixInners.get(store)!;
      for (const [key, value] of OUTSIDE) expect(inner.map.get(key), key).toEqual(value);
      for (const key of inner.map.keys()) {
        if (!OUTSIDE.has(key)) expect(key.startsWith("p/q/"), key).toBe(true);
      }
    },
  },
);

describeStoreContract(
  "LoggingStore over MapStore",
  (entries) => new LoggingStore(new MapStore(new Map(entries))),
  {},
);

/** The least a store can be: `get` alone (the suite then skips writes and listings). */
describeStoreContract(
  "a get-only store",
  (entries) => {
    const inner = new MapStore(new Map(entries));
    return { get: (key: string, options?: GetOptions) => inner.get(key, options) };
  },
  { writable: false, listable: false },
);

/** A writable store that cannot list: the suite checks its contents by reading them back. */
describeStoreContract(
  "a writable store without listing",
  (entries) => {
    const inner = new MapStore(new Map(entries));
    return {
      get: (key: string, options?: GetOptions) => inner.get(key, options),
      set: (key: string, value: Uint8Array, options?: SetOptions) => inner.set(key, value, options),
      delete: (key: string, options?: SetOptions) => inner.delete(key, options),
      deletePrefix: (prefix: string, options?: SetOptions) => inner.deletePrefix(prefix, options),
    };
  },
  {
    listable: false,
  },
);

describe("LoggingStore under the contract suite", () => {
  it("records the requests the suite makes", async () => {
    const store = new LoggingStore(new MapStore());
    await store.set!("a/b", Uint8Array.of(1, 2, 3));
    await store.get("a/b", { range: { suffix: 2 } });
    expect(store.requests.map((r) => [r.method, r.key, r.bytes])).toEqual([
      ["set", "a/b", 3],
      ["get", "a/b", 2],
    ]);
  });
});
