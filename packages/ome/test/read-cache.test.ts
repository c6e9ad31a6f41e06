import { ChunkCache } from "@z/array";
import { describe, expect, it } from "vitest";
import { openMultiscale, readTile } from "../src/index.js";
import { axesOf, buildImage, countingStore, pixelValue } from "./build-image.js";

describe("openMultiscale with a chunk cache", () => {
  it("reads a tile again from the cache, with no chunk read", async () => {
    const base = new Map<string, Uint8Array>();
    await buildImage(base, { shape: [40, 60], chunks: [16, 16], levels: 2, axes: axesOf("yx") });
    const { store, reads } = countingStore(base);
    const cache = new ChunkCache({ maxBytes: 2 ** 20 });
    const image = await openMultiscale(store, { path: "img", cache });
    const request = { level: 0, x: 10, y: 5, width: 20, height: 12 };
    const first = await readTile(image, request);
    // The tile touches chunks (0..1, 0..1) of level 0.
    expect(new Set(reads).size).toBe(4);
    const read = reads.length;
    const again = await readTile(image, request);
    expect(reads.length).toBe(read);
    expect(cache.stats()).toMatchObject({ hits: 4, misses: 4, entries: 4 });
    expect(Array.from(again.data as Float32Array)).toEqual(Array.from(first.data as Float32Array));
    expect((again.data as Float32Array)[0]).toBe(pixelValue([5, 10]));

    // Without the option nothing is cached: the same tile is read from the store again.
    const uncached = await openMultiscale(store, { path: "img" });
    await readTile(uncached, request);
    expect(reads.length).toBe(read + 4);
  });
});
