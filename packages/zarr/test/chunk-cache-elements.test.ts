// The chunk cache with element types whose containers are no TypedArray: strings are cached
// (they cannot be changed); bytes elements are objects a caller could change, so their chunks
// are not cached, and reads stay correct either way.
import { ChunkCache, createArray, MemoryStore, openArray } from "@z/zarr";
import { describe, expect, it } from "vitest";

describe("the chunk cache and element objects", () => {
  it("caches string chunks; changing a result changes no entry", async () => {
    const store = new MemoryStore();
    const arr = await createArray(store, { path: "s", shape: [4], chunks: [2], dtype: "string" });
    await arr.set(null, { data: ["a", "bb", "ccc", "dddd"], shape: [4] });
    const cache = new ChunkCache({ maxBytes: 2 ** 20 });
    const cached = await openArray(store, { path: "s", cache });
    const first = await cached.get();
    expect(first.data).toEqual(["a", "bb", "ccc", "dddd"]);
    (first.data as string[])[0] = "changed";
    expect((await cached.get()).data).toEqual(["a", "bb", "ccc", "dddd"]);
    // Two chunks of two strings: 64 + 2 * 8 + 2 * (characters) bytes each.
    expect(cache.stats()).toMatchObject({ entries: 2, hits: 2, bytes: 64 + 16 + 6 + 64 + 16 + 14 });
  });

  it("does not cache chunks of bytes elements, which a caller could change", async () => {
    const store = new MemoryStore();
    const arr = await createArray(store, { path: "b", shape: [3], chunks: [3], dtype: "bytes" });
    const data = [Uint8Array.of(1), Uint8Array.of(2, 3), Uint8Array.of()];
    await arr.set(null, { data, shape: [3] });
    const cache = new ChunkCache({ maxBytes: 2 ** 20 });
    const cached = await openArray(store, { path: "b", cache });
    const first = await cached.get();
    expect(first.data).toEqual(data);
    (first.data as Uint8Array[])[1][0] = 99;
    expect((await cached.get()).data).toEqual(data);
    expect(cache.stats()).toMatchObject({ entries: 0, hits: 0, misses: 2 });
  });
});
