import { expect } from "vitest";
import { sliceRange } from "../range.js";
import { type ContractContext, writer } from "./context.js";
import { allByteValues, expectBytes, expectFailure, patternBytes } from "./helpers.js";
import { rangesFor, seedEntries } from "./seed.js";
import { expectContents } from "./state.js";

/** Tests of `set`, `delete`, `deletePrefix` and `setIfNotExists`. */
export function writeTests(ctx: ContractContext): void {
  const writable = ctx.options.writable === true;

  ctx.test(
    "set then get round-trips a value",
    async () => {
      const store = writer(await ctx.make());
      const value = patternBytes(1000, 11);
      await store.set("a/b/c/0.0", value);
      expectBytes(await store.get("a/b/c/0.0"), value);
      await store.set("top", Uint8Array.of(1, 2, 3));
      expectBytes(await store.get("top"), Uint8Array.of(1, 2, 3));
    },
    writable,
  );

  ctx.test(
    "set copies the value: changing the caller's buffer afterwards changes nothing",
    async () => {
      const store = writer(await ctx.make());
      const buffer = patternBytes(256, 12);
      const expected = buffer.slice();
      await store.set("k", buffer);
      buffer.fill(0);
      expectBytes(await store.get("k"), expected);
      // A view into a larger buffer stores only the viewed bytes.
      const big = patternBytes(64, 13);
      await store.set("view", big.subarray(10, 20));
      big.fill(1);
      expectBytes(await store.get("view"), patternBytes(64, 13).subarray(10, 20));
    },
    writable,
  );

  ctx.test(
    "set replaces a value, whether longer or shorter",
    async () => {
      const store = writer(await ctx.make());
      for (const length of [10, 1000, 3, 0, 50]) {
        const value = patternBytes(length, length);
        await store.set("k", value);
        expectBytes(await store.get("k"), value, `length ${length}`);
      }
    },
    writable,
  );

  ctx.test(
    "binary values with all 256 byte values round-trip, whole and in ranges",
    async () => {
      const store = writer(await ctx.make());
      const value = allByteValues();
      await store.set("bin", value);
      expectBytes(await store.get("bin"), value);
      for (const range of rangesFor(value.length)) {
        expectBytes(
          await store.get("bin", { range }),
          sliceRange(value, range),
          JSON.stringify(range),
        );
      }
    },
    writable,
  );

  ctx.test(
    "empty values are stored and listed",
    async () => {
      const store = writer(await ctx.make());
      await store.set("e/0", new Uint8Array(0));
      await expectContents(store, new Map([["e/0", new Uint8Array(0)]]));
      if (store.has) expect(await store.has("e/0")).toBe(true);
    },
    writable,
  );

  ctx.test(
    "a multi-megabyte value round-trips",
    async () => {
      const store = writer(await ctx.make());
      const value = patternBytes(3 * 1024 * 1024 + 17, 14);
      await store.set("big", value);
      expectBytes(await store.get("big"), value);
      const range = { offset: 1024 * 1024 - 3, length: 2 * 1024 * 1024 };
      expectBytes(await store.get("big", { range }), sliceRange(value, range), "middle range");
      expectBytes(await store.get("big", { range: { suffix: 5 } }), value.subarray(-5), "suffix");
    },
    writable,
  );

  ctx.test(
    "many keys",
    async () => {
      const store = writer(await ctx.make());
      const expected = new Map<string, Uint8Array>();
      for (let i = 0; i < ctx.options.manyKeys; i++) {
        expected.set(`g/c/${i % 7}/${i}`, patternBytes(i % 50, i));
      }
      for (const [key, value] of expected) await store.set(key, value);
      await expectContents(store, expected);
    },
    writable,
  );

  ctx.test(
    "concurrent sets of different keys all land",
    async () => {
      const store = writer(await ctx.make());
      const expected = new Map<string, Uint8Array>();
      for (let i = 0; i < 200; i++) expected.set(`p/${i % 5}/q/${i}`, patternBytes(100 + i, i));
      await Promise.all([...expected].map(([key, value]) => store.set(key, value)));
      await expectContents(store, expected);
    },
    writable,
  );

  ctx.test(
    "concurrent sets of one key leave exactly one of the values",
    async () => {
      const store = writer(await ctx.make());
      const values = Array.from({ length: 16 }, (_, i) => patternBytes(20_000 + i * 1000, i));
      await Promise.all(values.map((value) => store.set("same/key", value)));
      const stored = await store.get("same/key");
      const match = values.find((value) => value.length === stored?.length);
      expect(match, "the stored length matches one of the written values").toBeDefined();
      expectBytes(stored, match!);
      await expectContents(store, new Map([["same/key", match!]]));
    },
    writable,
  );

  ctx.test(
    "delete removes one key; deleting a missing key or a prefix path does nothing",
    async () => {
      const entries = seedEntries();
      const store = writer(await ctx.make(entries));
      await store.delete("a/c/0/0");
      entries.delete("a/c/0/0");
      await expectContents(store, entries, ["a/c/0/0"]);
      for (const key of ["a/c/0/0", "missing", "a/c", "a", "zarr.json/x", "deep/missing/key"]) {
        await store.delete(key);
      }
      await expectContents(store, entries, ["a/c/0/0"]);
      await store.delete("b/0.0");
      await store.delete("b/.zarray");
      entries.delete("b/0.0");
      entries.delete("b/.zarray");
      await expectContents(store, entries, ["b/0.0"]);
    },
    writable,
  );

  ctx.test(
    "deletePrefix removes exactly the keys under the prefix",
    async () => {
      const entries = seedEntries();
      const store = writer(await ctx.make(entries));
      await store.deletePrefix("a/c/");
      for (const key of [...entries.keys()]) if (key.startsWith("a/c/")) entries.delete(key);
      await expectContents(store, entries, ["a/c/0/0"]);
      // "c/" must not take "c-" or "c.d/x" with it.
      await store.deletePrefix("c/");
      entries.delete("c/x");
      await expectContents(store, entries, ["c/x"]);
      await store.deletePrefix("missing/");
      await store.deletePrefix("zarr.json/");
      await expectContents(store, entries);
    },
    writable,
  );

  ctx.test(
    "deletePrefix of the root removes every key",
    async () => {
      const store = writer(await ctx.make(seedEntries()));
      await store.deletePrefix("");
      await expectContents(store, new Map(), seedEntries().keys());
      await store.set("again", Uint8Array.of(1));
      await expectContents(store, new Map([["again", Uint8Array.of(1)]]));
    },
    writable,
  );

  ctx.test(
    "setIfNotExists writes only when the key is missing",
    async (context) => {
      const store = writer(await ctx.make([["taken", Uint8Array.of(1)]]));
      context.skip(!store.setIfNotExists, "the store has no setIfNotExists");
      expect(await store.setIfNotExists!("taken", Uint8Array.of(2))).toBe(false);
      expect(await store.setIfNotExists!("new/key", Uint8Array.of(3))).toBe(true);
      expect(await store.setIfNotExists!("new/key", Uint8Array.of(4))).toBe(false);
      await expectContents(
        store,
        new Map([
          ["new/key", Uint8Array.of(3)],
          ["taken", Uint8Array.of(1)],
        ]),
      );
    },
    writable,
  );

  ctx.test(
    "concurrent setIfNotExists calls: exactly one wins",
    async (context) => {
      const store = writer(await ctx.make());
      context.skip(!store.setIfNotExists, "the store has no setIfNotExists");
      const values = Array.from({ length: 12 }, (_, i) => patternBytes(5000 + i, i));
      const wins = await Promise.all(values.map((value) => store.setIfNotExists!("lock", value)));
      expect(wins.filter(Boolean)).toHaveLength(1);
      expectBytes(await store.get("lock"), values[wins.indexOf(true)]);
    },
    writable,
  );

  ctx.test(
    "a read-only store refuses writes with ReadOnlyError and changes nothing",
    async () => {
      const entries = seedEntries();
      const store = writer(await ctx.make(entries));
      await expectFailure(() => store.set("new", Uint8Array.of(1)), "ReadOnlyError", "set new");
      await expectFailure(() => store.set("zarr.json", Uint8Array.of(1)), "ReadOnlyError", "set");
      await expectFailure(() => store.delete("zarr.json"), "ReadOnlyError", "delete");
      await expectFailure(() => store.deletePrefix("a/"), "ReadOnlyError", "deletePrefix");
      await expectFailure(() => store.deletePrefix(""), "ReadOnlyError", "deletePrefix root");
      if (store.setIfNotExists) {
        await expectFailure(
          () => store.setIfNotExists!("new", Uint8Array.of(1)),
          "ReadOnlyError",
          "setIfNotExists",
        );
      }
      await expectContents(store, entries, ["new"]);
    },
    ctx.options.writable === "read-only",
  );
}
