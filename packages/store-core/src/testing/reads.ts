import { expect } from "vitest";
import { type ByteRange, sliceRange } from "../range.js";
import type { ContractContext } from "./context.js";
import { expectBytes, expectFailure, patternBytes } from "./helpers.js";
import { MALFORMED_RANGES, rangesFor, seedEntries } from "./seed.js";

/** Keys that are missing from the seed store, including paths of "directories" and below values. */
const MISSING_KEYS = [
  "missing",
  "a/missing",
  "no/such/deep/key",
  "a",
  "a/c",
  "a/c/0",
  "zarr.json/x",
  "b/0.0/x",
  "A/zarr.json",
];

/** Valid keys with spaces, non-ASCII text and dots that are not `.` or `..` segments. */
const UNUSUAL_KEYS = [
  "a b/c d",
  "ü/日本語/🙂",
  "...",
  "..a/a..",
  ".zattrs",
  "-",
  "%2e%2e/x",
  "__init__",
  "~",
  "x".repeat(200),
];

const describeRange = (range: ByteRange | undefined) => JSON.stringify(range ?? "whole value");

/** Tests of `get`, `getRanges` and `has`. */
export function readTests(ctx: ContractContext): void {
  const { options } = ctx;

  ctx.test("get of a missing key resolves to undefined", async () => {
    const store = await ctx.make(seedEntries());
    for (const key of MISSING_KEYS) {
      expect(await store.get(key), key).toBeUndefined();
      expect(await store.get(key, { range: { offset: 0, length: 1 } }), key).toBeUndefined();
      expect(await store.get(key, { range: { suffix: 4 } }), key).toBeUndefined();
    }
    const empty = await ctx.make();
    expect(await empty.get("zarr.json")).toBeUndefined();
  });

  ctx.test("get returns the stored bytes", async () => {
    const entries = seedEntries();
    const store = await ctx.make(entries);
    for (const [key, value] of entries) expectBytes(await store.get(key), value, key);
  });

  ctx.test("empty values read back as empty, not as missing", async () => {
    const store = await ctx.make([["e", new Uint8Array(0)]]);
    expectBytes(await store.get("e"), new Uint8Array(0), "e");
    expectBytes(await store.get("e", { range: { suffix: 5 } }), new Uint8Array(0), "suffix");
    expectBytes(await store.get("e", { range: { offset: 3 } }), new Uint8Array(0), "offset");
    if (store.has) expect(await store.has("e")).toBe(true);
  });

  ctx.test("byte ranges are clipped to the value, never an out-of-bounds error", async () => {
    const entries = new Map([
      ["empty", new Uint8Array(0)],
      ["one", Uint8Array.of(7)],
      ["hundred", patternBytes(100, 9)],
      ["nested/value", patternBytes(4099, 10)],
    ]);
    const store = await ctx.make(entries);
    for (const [key, value] of entries) {
      for (const range of rangesFor(value.length)) {
        const expected = sliceRange(value, range);
        expectBytes(await store.get(key, { range }), expected, `${key} ${describeRange(range)}`);
      }
    }
  });

  ctx.test("malformed ranges reject with InvalidRangeError", async () => {
    const store = await ctx.make([["k", patternBytes(10)]]);
    for (const range of MALFORMED_RANGES) {
      await expectFailure(
        () => store.get("k", { range }),
        "InvalidRangeError",
        describeRange(range),
      );
    }
  });

  ctx.test("getRanges reads every range of one value", async (context) => {
    const value = patternBytes(300, 5);
    const store = await ctx.make([["v", value]]);
    context.skip(!store.getRanges, "the store has no getRanges");
    const ranges = rangesFor(value.length);
    const parts = await store.getRanges!("v", ranges);
    expect(parts).toHaveLength(ranges.length);
    ranges.forEach((range, i) => {
      expectBytes(parts![i], sliceRange(value, range), describeRange(range));
    });
    expect(await store.getRanges!("v", [])).toEqual([]);
    expect(await store.getRanges!("missing", [{ offset: 0, length: 1 }])).toBeUndefined();
  });

  ctx.test("has tells whether a key exists", async (context) => {
    const store = await ctx.make(seedEntries());
    context.skip(!store.has, "the store has no has()");
    for (const key of seedEntries().keys()) expect(await store.has!(key), key).toBe(true);
    for (const key of MISSING_KEYS) expect(await store.has!(key), key).toBe(false);
  });

  ctx.test(
    "a value returned by get belongs to the caller",
    async () => {
      const value = patternBytes(64, 3);
      const store = await ctx.make([["k", value]]);
      const first = await store.get("k");
      first!.fill(0);
      const part = await store.get("k", { range: { offset: 8, length: 8 } });
      part!.fill(0);
      expectBytes(await store.get("k"), value, "after changing returned buffers");
    },
    options.freshReadBuffers,
  );

  ctx.test("unusual but valid keys are stored as they are", async () => {
    const entries = new Map(UNUSUAL_KEYS.map((key, i) => [key, patternBytes(i + 1, i)] as const));
    const store = await ctx.make(entries);
    for (const [key, value] of entries) expectBytes(await store.get(key), value, key);
  });
}
