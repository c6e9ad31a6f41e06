import {
  CachingStore,
  CoalescingStore,
  ForwardingStore,
  type GetOptions,
  getRangesOf,
  LoggingStore,
  MapStore,
  PrefixStore,
  type Readable,
  ReadOnlyStore,
  sliceRange,
} from "@z/store-core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

/*
 * Keys are checked once, by the store that touches a backend. Wrappers that pass a key on
 * unchanged leave it to the store they wrap (so a stack of wrappers costs one check), and the
 * stack as a whole still refuses every hostile key; PrefixStore, which builds keys, checks.
 */

const HOSTILE = ["", "/a", "a/", "a//b", "a/../b", "..", ".", "a\\b", "a\0b"];

/** A store that accepts any key and records what reached it: a backend without checks. */
class RecordingStore implements Readable {
  readonly seen: string[] = [];
  readonly values = new Map<string, Uint8Array>();
  async get(key: string, options?: GetOptions): Promise<Uint8Array | undefined> {
    this.seen.push(key);
    const value = this.values.get(key);
    return value === undefined ? undefined : sliceRange(value, options?.range);
  }
}

const WRAPPERS: [string, (inner: Readable) => Readable][] = [
  ["CachingStore", (inner) => new CachingStore(inner)],
  ["CoalescingStore", (inner) => new CoalescingStore(inner)],
  ["LoggingStore", (inner) => new LoggingStore(inner)],
  ["ReadOnlyStore", (inner) => new ReadOnlyStore(inner)],
  [
    "a stack of all four",
    (inner) =>
      new ReadOnlyStore(new CachingStore(new CoalescingStore(new LoggingStore(inner)), {})),
  ],
];

describe("wrappers pass keys on unchecked", () => {
  for (const [name, wrap] of WRAPPERS) {
    it(`${name}: the wrapped store sees every key as given, hostile or not`, async () => {
      const backend = new RecordingStore();
      const store = wrap(backend);
      for (const key of HOSTILE) {
        await store.get(key);
        await store.get(key, { range: { offset: 0, length: 1 } });
      }
      expect(new Set(backend.seen)).toEqual(new Set(HOSTILE));
    });

    it(`${name} over a MapStore: every hostile key is refused with InvalidKeyError`, async () => {
      const store = wrap(new MapStore(new Map([["a", Uint8Array.of(1)]])));
      for (const key of HOSTILE) {
        await expect(store.get(key), JSON.stringify(key)).rejects.toMatchObject({
          name: "InvalidKeyError",
          key,
        });
        if (store.getRanges) {
          await expect(store.getRanges(key, [{ suffix: 1 }])).rejects.toMatchObject({
            name: "InvalidKeyError",
          });
        }
      }
    });
  }

  it("PrefixStore checks the keys it joins: none reaches the wrapped store", async () => {
    const backend = new RecordingStore();
    const store = new PrefixStore(backend, "p/q");
    for (const key of HOSTILE) {
      await expect(store.get(key), JSON.stringify(key)).rejects.toMatchObject({
        name: "InvalidKeyError",
        key,
      });
    }
    expect(backend.seen).toEqual([]);
    await store.get("zarr.json");
    expect(backend.seen).toEqual(["p/q/zarr.json"]);
  });
});

describe("ForwardingStore", () => {
  const CAPABILITIES = [
    "has",
    "getSize",
    "getVersioned",
    "conditionalWrites",
    "set",
    "setIfNotExists",
    "delete",
    "deletePrefix",
    "list",
    "listPrefix",
    "listDir",
  ] as const;
  const present = (store: object) =>
    CAPABILITIES.filter((name) => (store as Record<string, unknown>)[name] !== undefined);

  it("passes on exactly the capabilities the wrapped store has", async () => {
    const map = new MapStore();
    expect(present(new ForwardingStore(map))).toEqual([...CAPABILITIES]);
    expect(present(new ForwardingStore(new RecordingStore()))).toEqual([]);
    const sized = Object.assign(new RecordingStore(), { getSize: async () => 7 });
    expect(present(new ForwardingStore(sized))).toEqual(["getSize"]);
  });

  it("forwards writes, versions and listing to the wrapped store", async () => {
    const map = new MapStore();
    const store = new ForwardingStore(map);
    await store.set!("a/b", Uint8Array.of(1, 2));
    expect(map.map.get("a/b")).toEqual(Uint8Array.of(1, 2));
    const versioned = await store.getVersioned!("a/b");
    await store.set!("a/b", Uint8Array.of(3), { ifMatch: versioned!.version });
    await expect(
      store.set!("a/b", Uint8Array.of(4), { ifMatch: versioned!.version }),
    ).rejects.toMatchObject({ name: "ConflictError", key: "a/b" });
    expect(await store.listDir!("a/")).toEqual({ keys: ["a/b"], prefixes: [] });
    expect(await store.get("a/b")).toEqual(Uint8Array.of(3));
  });
});

describe("getRangesOf", () => {
  const range = fc.oneof(
    fc.record({ offset: fc.nat(40), length: fc.nat(40) }),
    fc.record({ offset: fc.nat(40) }),
    fc.record({ suffix: fc.nat(40) }),
  );

  it("reads what slicing the value gives, with or without the store's getRanges", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ maxLength: 32 }),
        fc.array(range, { maxLength: 6 }),
        fc.boolean(),
        async (value, ranges, exists) => {
          const backend = new RecordingStore();
          if (exists) backend.values.set("k", value);
          const expected = exists ? ranges.map((r) => sliceRange(value, r)) : undefined;
          expect(await getRangesOf(backend, "k", ranges)).toEqual(expected);
          const map = new MapStore(new Map(exists ? [["k", value]] : []));
          expect(await getRangesOf(map, "k", ranges)).toEqual(expected);
        },
      ),
    );
  });
});
