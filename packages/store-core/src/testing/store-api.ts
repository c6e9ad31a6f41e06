import { expect } from "vitest";
import { storeCapabilities } from "../capabilities.js";
import { clearStore } from "../clear-store.js";
import { asyncDispose, closeStore } from "../dispose.js";
import { getSizeOf } from "../get-size.js";
import { getSizePrefixOf } from "../get-size-prefix.js";
import { isEmptyOf } from "../is-empty.js";
import { getPartialValuesOf, setPartialValuesOf } from "../partial-values.js";
import { sliceRange } from "../range.js";
import {
  isListable,
  type KeyRange,
  type Readable,
  type Store,
  type StoreCapabilities,
} from "../store.js";
import { withReadOnly } from "../with-read-only.js";
import { type ContractContext, writer } from "./context.js";
import { collect, expectBytes, expectFailure, patternBytes, sortedKeys } from "./helpers.js";
import { seedEntries } from "./seed.js";
import { expectContents } from "./state.js";

/** The store API zarr-python's stores share, which stores declaring its `supports*` flags offer. */
interface StoreApi extends StoreCapabilities {
  getSize(key: string): Promise<number | undefined>;
  getSizePrefix(prefix?: string): Promise<number>;
  getPartialValues(requests: readonly KeyRange[]): Promise<(Uint8Array | undefined)[]>;
  isEmpty(prefix?: string): Promise<boolean>;
  clear(): Promise<void>;
  withReadOnly(): Readable;
}

const API_METHODS = [
  "getSize",
  "getSizePrefix",
  "getPartialValues",
  "isEmpty",
  "clear",
  "withReadOnly",
] as const;

/** The store's own API when it declares zarr-python's capability flags, else undefined. */
function apiOf(store: Store): StoreApi | undefined {
  return "supportsWrites" in store ? (store as unknown as StoreApi) : undefined;
}

/** Sum of the seed values whose key starts with `prefix`. */
function seedSize(prefix: string): number {
  let total = 0;
  for (const [key, value] of seedEntries()) if (key.startsWith(prefix)) total += value.length;
  return total;
}

/** Tests of zarr-python's store API: sizes, many-key reads, partial writes, emptiness, clear, views. */
export function storeApiTests(ctx: ContractContext): void {
  const { options } = ctx;
  const writable = options.writable === true;

  ctx.test("a store declaring supports* flags has the whole store API", async (context) => {
    const store = await ctx.make(seedEntries());
    const api = apiOf(store);
    context.skip(api === undefined, "the store does not declare zarr-python's flags");
    for (const method of API_METHODS) {
      expect(typeof (store as unknown as Record<string, unknown>)[method], method).toBe("function");
    }
    expect(typeof (store as unknown as Record<symbol, unknown>)[asyncDispose]).toBe("function");
  });

  ctx.test("capabilities agree with what the store does", async () => {
    const store = await ctx.make(seedEntries());
    const capabilities = storeCapabilities(store);
    expect(capabilities.supportsWrites, "supportsWrites").toBe(writable);
    expect(capabilities.supportsDeletes, "supportsDeletes").toBe(writable);
    expect(capabilities.supportsListing, "supportsListing").toBe(options.listable);
    if (capabilities.supportsPartialWrites) expect(writable).toBe(true);
  });

  ctx.test("getSize is the value's length, undefined for a missing key", async () => {
    const entries = seedEntries();
    const store = await ctx.make(entries);
    const own = apiOf(store);
    for (const [key, value] of entries) {
      expect(await getSizeOf(store, key), key).toBe(value.length);
      if (own) expect(await own.getSize(key), `own ${key}`).toBe(value.length);
    }
    for (const key of ["missing", "a", "a/c", "zarr.json/x"]) {
      expect(await getSizeOf(store, key), key).toBeUndefined();
      if (own) expect(await own.getSize(key), `own ${key}`).toBeUndefined();
    }
    await expectFailure(() => getSizeOf(store, "a/../b"), "InvalidKeyError", "a '..' key");
  });

  ctx.test(
    "getSizePrefix sums the values under a folder",
    async () => {
      const store = await ctx.make(seedEntries());
      const own = apiOf(store);
      // "c" is the folder "c/": neither "c-" nor "c.d/x" is under it.
      for (const [prefix, folder] of [
        ["", ""],
        ["a", "a/"],
        ["a/", "a/"],
        ["a/c", "a/c/"],
        ["b", "b/"],
        ["c", "c/"],
        ["c.d/", "c.d/"],
        ["missing", "missing/"],
      ]) {
        expect(await getSizePrefixOf(store, prefix), prefix).toBe(seedSize(folder));
        if (own) expect(await own.getSizePrefix(prefix), `own ${prefix}`).toBe(seedSize(folder));
      }
      await expectFailure(() => getSizePrefixOf(store, "a/../"), "InvalidKeyError", "'..'");
    },
    options.listable,
  );

  // Ranges inside the values: how each store clips ranges is the business of the read tests.
  ctx.test("getPartialValues reads ranges of several keys, in order", async () => {
    const entries = seedEntries();
    const store = await ctx.make(entries);
    const requests: KeyRange[] = [
      { key: "a/c/0/1", range: { offset: 10, length: 20 } },
      { key: "missing" },
      { key: "zarr.json" },
      { key: "a/c/0/1", range: { suffix: 7 } },
      { key: "a/c/0/0", range: { offset: 95 } },
      { key: "missing", range: { offset: 0, length: 1 } },
      { key: "a/c/1/0" },
      { key: "b/0.0", range: { offset: 0, length: 1 } },
    ];
    const expected = requests.map(({ key, range }) => {
      const value = entries.get(key);
      return value === undefined ? undefined : sliceRange(value, range);
    });
    const own = apiOf(store);
    for (const [what, read] of [
      ["getPartialValuesOf", () => getPartialValuesOf(store, requests)],
      ["one at a time", () => getPartialValuesOf(store, requests, { concurrency: 1 })],
      ...(own ? [["own", () => own.getPartialValues(requests)] as const] : []),
    ] as const) {
      const parts = await read();
      expect(parts, what).toHaveLength(requests.length);
      parts.forEach((part, i) => {
        if (expected[i] === undefined) expect(part, `${what} ${i}`).toBeUndefined();
        else expectBytes(part, expected[i]!, `${what} ${i}`);
      });
    }
    expect(await getPartialValuesOf(store, [])).toEqual([]);
    await expectFailure(
      () => getPartialValuesOf(store, [{ key: "zarr.json", range: { offset: -1 } }]),
      "InvalidRangeError",
      "a negative offset",
    );
  });

  ctx.test(
    "setPartialValues overwrites in place, extends past the end, and changes nothing else",
    async (context) => {
      const store = await ctx.make();
      context.skip(!storeCapabilities(store).supportsPartialWrites, "no partial writes");
      const w = writer(store);
      const value = patternBytes(100, 21);
      await w.set("a/k", value);
      await w.set("other", Uint8Array.of(9));
      const patch = patternBytes(10, 22);
      const tail = patternBytes(5, 23);
      await setPartialValuesOf(store, [
        { key: "a/k", offset: 30, value: patch },
        { key: "a/k", offset: 110, value: tail },
      ]);
      const expected = new Uint8Array(115);
      expected.set(value);
      expected.set(patch, 30);
      expected.set(tail, 110); // bytes 100..110 are the zeros of the gap
      await expectContents(
        store,
        new Map([
          ["a/k", expected],
          ["other", Uint8Array.of(9)],
        ]),
      );
      await setPartialValuesOf(store, [{ key: "other", offset: 0, value: new Uint8Array(0) }]);
      expectBytes(await store.get("other"), Uint8Array.of(9), "an empty write");
      await expectFailure(
        () => setPartialValuesOf(store, [{ key: "missing", offset: 0, value: patch }]),
        "NotFoundError",
        "a missing key",
      );
      expect(await store.get("missing")).toBeUndefined();
      await expectFailure(
        () => setPartialValuesOf(store, [{ key: "a/k", offset: -1, value: patch }]),
        "InvalidRangeError",
        "a negative offset",
      );
      await expectFailure(
        () => setPartialValuesOf(store, [{ key: "../k", offset: 0, value: patch }]),
        "InvalidKeyError",
        "a '..' key",
      );
      expectBytes(await store.get("a/k"), expected, "after refused writes");
    },
    writable,
  );

  ctx.test("a store without partial writes says so and refuses them", async (context) => {
    const store = await ctx.make([["k", Uint8Array.of(1, 2)]]);
    context.skip(storeCapabilities(store).supportsPartialWrites, "it has partial writes");
    await expectFailure(
      () => setPartialValuesOf(store, [{ key: "k", offset: 0, value: Uint8Array.of(5) }]),
      writable ? "UnsupportedOperationError" : ["UnsupportedOperationError", "ReadOnlyError"],
      "setPartialValues",
    );
    expectBytes(await store.get("k"), Uint8Array.of(1, 2), "unchanged");
  });

  ctx.test(
    "isEmpty tells whether a folder holds keys",
    async () => {
      const store = await ctx.make(seedEntries());
      const own = apiOf(store);
      for (const [prefix, empty] of [
        ["", false],
        ["a", false],
        ["a/", false],
        ["a/c/1", false],
        ["c", false],
        ["c.d", false],
        ["a/c/2", true],
        ["zarr.json", true],
        ["missing/", true],
        ["b/0.0", true],
      ] as const) {
        expect(await isEmptyOf(store, prefix), prefix).toBe(empty);
        if (own) expect(await own.isEmpty(prefix), `own ${prefix}`).toBe(empty);
      }
      expect(await isEmptyOf(await ctx.make()), "a new store").toBe(true);
    },
    options.listable,
  );

  ctx.test(
    "clear removes every key",
    async () => {
      const store = await ctx.make(seedEntries());
      const own = apiOf(store);
      if (own) await own.clear();
      else await clearStore(store);
      await expectContents(store, new Map(), seedEntries().keys(), "after clear");
      // A cleared store takes new values.
      await writer(store).set("a/new", Uint8Array.of(3));
      await expectContents(store, new Map([["a/new", Uint8Array.of(3)]]), [], "after a new set");
    },
    writable,
  );

  ctx.test("withReadOnly gives a view that reads through and refuses writes", async () => {
    const entries = seedEntries();
    const store = await ctx.make(entries);
    const own = apiOf(store);
    const view = own ? own.withReadOnly() : withReadOnly(store);
    for (const [key, value] of entries) expectBytes(await view.get(key), value, key);
    expect(await getSizeOf(view, "a/c/0/1")).toBe(entries.get("a/c/0/1")!.length);
    const capabilities = storeCapabilities(view);
    expect(capabilities.supportsWrites, "supportsWrites").toBe(false);
    expect(capabilities.supportsPartialWrites, "supportsPartialWrites").toBe(false);
    expect(capabilities.supportsListing, "supportsListing").toBe(options.listable);
    const w = writer(view as Store);
    await expectFailure(() => w.set("zarr.json", Uint8Array.of(1)), "ReadOnlyError", "set");
    await expectFailure(() => w.delete("zarr.json"), "ReadOnlyError", "delete");
    await expectFailure(() => w.deletePrefix(""), "ReadOnlyError", "deletePrefix");
    await expectFailure(() => clearStore(view), "ReadOnlyError", "clearStore");
    await expectFailure(
      () => setPartialValuesOf(view, [{ key: "zarr.json", offset: 0, value: Uint8Array.of(1) }]),
      ["ReadOnlyError", "UnsupportedOperationError"],
      "setPartialValues",
    );
    if (options.listable) expect(await isEmptyOf(view, "a")).toBe(false);
    // The view changed nothing (listing order is the listing tests' business), and the store
    // itself stays as writable as it was.
    if (isListable(store)) {
      expect(sortedKeys(await collect(store.list()))).toEqual(sortedKeys(entries.keys()));
    }
    for (const [key, value] of entries) expectBytes(await store.get(key), value, key);
    await closeStore(view);
    expectBytes(
      await store.get("zarr.json"),
      entries.get("zarr.json")!,
      "after disposing the view",
    );
    if (writable) await writer(store).set("zarr.json", Uint8Array.of(7));
  });

  ctx.test("disposing a store resolves, and disposing it again does too", async () => {
    const store = await ctx.make(seedEntries());
    await closeStore(store);
    await closeStore(store);
  });
}
