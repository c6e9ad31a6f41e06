import { expect } from "vitest";
import { MapStore } from "../map-store.js";
import { type ContractContext, lister, writer } from "./context.js";
import { collect, patternBytes } from "./helpers.js";
import { seedEntries } from "./seed.js";

/** Prefixes to list in the seed store: the root, nested, sort-order traps, missing, a value. */
const PREFIXES = [
  "",
  "a/",
  "a/c/",
  "a/c/0/",
  "b/",
  "c/",
  "c.d/",
  "missing/",
  "zarr.json/",
  "a/c/1/0/",
];

/** Tests of `list`, `listPrefix` and `listDir`. */
export function listingTests(ctx: ContractContext): void {
  const listable = ctx.options.listable;

  ctx.test(
    "an empty store lists nothing",
    async () => {
      const store = lister(await ctx.make());
      expect(await collect(store.list())).toEqual([]);
      expect(await collect(store.listPrefix(""))).toEqual([]);
      expect(await collect(store.listPrefix("a/"))).toEqual([]);
      expect(await store.listDir("")).toEqual({ keys: [], prefixes: [] });
      expect(await store.listDir("a/")).toEqual({ keys: [], prefixes: [] });
    },
    listable,
  );

  ctx.test(
    "list yields every key, sorted",
    async () => {
      const entries = seedEntries();
      const store = lister(await ctx.make(entries));
      expect(await collect(store.list())).toEqual([...entries.keys()].sort());
    },
    listable,
  );

  ctx.test(
    "listPrefix yields the keys under a prefix, sorted",
    async () => {
      const store = lister(await ctx.make(seedEntries()));
      const reference = new MapStore(seedEntries());
      for (const prefix of PREFIXES) {
        const expected = await collect(reference.listPrefix(prefix));
        expect(await collect(store.listPrefix(prefix)), JSON.stringify(prefix)).toEqual(expected);
      }
    },
    listable,
  );

  ctx.test(
    "listDir gives the keys and sub-prefixes directly under a prefix",
    async () => {
      const store = lister(await ctx.make(seedEntries()));
      const reference = new MapStore(seedEntries());
      for (const prefix of PREFIXES) {
        const expected = await reference.listDir(prefix);
        expect(await store.listDir(prefix), JSON.stringify(prefix)).toEqual(expected);
      }
    },
    listable,
  );

  ctx.test(
    "listings follow writes and deletes",
    async () => {
      const store = lister(writer(await ctx.make()));
      const keys = ["x/0", "x/1/a", "x/1/b", "y"];
      for (const [i, key] of keys.entries()) await writer(store).set(key, patternBytes(i + 1, i));
      expect(await store.listDir("")).toEqual({ keys: ["y"], prefixes: ["x/"] });
      expect(await store.listDir("x/")).toEqual({ keys: ["x/0"], prefixes: ["x/1/"] });
      await writer(store).delete("x/1/a");
      await writer(store).delete("x/1/b");
      expect(await store.listDir("x/")).toEqual({ keys: ["x/0"], prefixes: [] });
      await writer(store).delete("x/0");
      expect(await store.listDir("")).toEqual({ keys: ["y"], prefixes: [] });
      expect(await collect(store.listPrefix("x/"))).toEqual([]);
      await writer(store).set("x/again", Uint8Array.of(1));
      expect(await collect(store.list())).toEqual(["x/again", "y"]);
    },
    listable && ctx.options.writable === true,
  );
}
