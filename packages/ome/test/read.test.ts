import { openArray } from "@z/array";
import { slice } from "@z/indexing";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { OmeMetadataError, OmeOptionError, openMultiscale, readTile } from "../src/index.js";
import { axesOf, buildImage, countingStore } from "./build-image.js";

describe("openMultiscale", () => {
  it("opens every level with its array, shape and composed scale", async () => {
    const store = new Map<string, Uint8Array>();
    await buildImage(store, {
      shape: [2, 40, 60],
      chunks: [1, 16, 16],
      levels: 3,
      axes: axesOf("cyx"),
    });
    const image = await openMultiscale(store, { path: "img" });
    expect(image.version).toBe("0.4");
    expect(image.name).toBe("test");
    expect(image.axes.map((a) => a.name)).toEqual(["c", "y", "x"]);
    expect(image.levels.map((l) => l.shape)).toEqual([
      [2, 40, 60],
      [2, 20, 30],
      [2, 10, 15],
    ]);
    expect(image.levels.map((l) => l.scale)).toEqual([
      [1, 0.5, 0.5],
      [1, 1, 1],
      [1, 2, 2],
    ]);
    expect(image.levels[2].translation).toEqual([0, 0, 0]);
    expect(image.levels[1].array.path).toBe("img/1");
    expect(image.channels).toEqual([]);
    // The same through an opened group, and by multiscale name.
    const again = await openMultiscale(image.group, { multiscale: "test" });
    expect(again.levels.map((l) => l.path)).toEqual(["0", "1", "2"]);
    await expect(openMultiscale(image.group, { multiscale: 1 })).rejects.toThrow(OmeOptionError);
  });

  it("opens 0.5 images (v3 groups, metadata under ome)", async () => {
    const store = new Map<string, Uint8Array>();
    await buildImage(store, {
      shape: [40, 60],
      chunks: [16, 16],
      levels: 2,
      axes: axesOf("yx"),
      zarrFormat: 3,
    });
    const image = await openMultiscale(store, { path: "img" });
    expect(image.version).toBe("0.5");
    expect(image.levels[1].shape).toEqual([20, 30]);
  });

  it("refuses a level whose array has another number of dimensions than the axes", async () => {
    const store = new Map<string, Uint8Array>();
    await buildImage(store, { shape: [40, 60], chunks: [16, 16], levels: 1, axes: axesOf("yx") });
    const wrong = new Map(store);
    const attrs = JSON.parse(new TextDecoder().decode(wrong.get("img/.zattrs")));
    attrs.multiscales[0].axes = axesOf("cyx");
    attrs.multiscales[0].datasets[0].coordinateTransformations[0].scale = [1, 1, 1];
    wrong.set("img/.zattrs", new TextEncoder().encode(JSON.stringify(attrs)));
    const e = await openMultiscale(wrong, { path: "img" }).catch((x) => x);
    expect(e).toBeInstanceOf(OmeMetadataError);
    expect(e.message).toBe(
      'multiscales[0].datasets[0]: the array "0" has 2 dimensions, the axes 3 (in the group "/img")',
    );
  });
});

describe("readTile", () => {
  it("reads the same pixels as a get of the region, at any level, tile, c and z", async () => {
    const store = new Map<string, Uint8Array>();
    const shape = [2, 3, 37, 53];
    await buildImage(store, { shape, chunks: [1, 2, 8, 16], levels: 3, axes: axesOf("czyx") });
    const image = await openMultiscale(store, { path: "img" });
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 2 }),
        fc.integer({ min: -10, max: 60 }),
        fc.integer({ min: -10, max: 40 }),
        fc.integer({ min: 1, max: 40 }),
        fc.integer({ min: 1, max: 40 }),
        fc.integer({ min: 0, max: 1 }),
        fc.integer({ min: 0, max: 2 }),
        async (l, x, y, width, height, c, z) => {
          const level = image.levels[l];
          const [, , H, W] = level.shape;
          const inside = x < W && y < H && x + width > 0 && y + height > 0;
          const request = { level: l, x, y, width, height, c, z };
          if (!inside) {
            await expect(readTile(image, request)).rejects.toThrow(OmeOptionError);
            return;
          }
          const tile = await readTile(image, request);
          const x0 = Math.max(0, x);
          const y0 = Math.max(0, y);
          const x1 = Math.min(W, x + width);
          const y1 = Math.min(H, y + height);
          const direct = await (await openArray(store, { path: `img/${l}` })).get([
            c,
            z,
            slice(y0, y1),
            slice(x0, x1),
          ]);
          expect(tile.shape).toEqual([y1 - y0, x1 - x0]);
          expect([tile.x, tile.y, tile.width, tile.height]).toEqual([x0, y0, x1 - x0, y1 - y0]);
          expect(Array.from(tile.data as Float32Array)).toEqual(
            Array.from(direct.data as Float32Array),
          );
        },
      ),
      { numRuns: 150 },
    );
  });

  it("reads only the chunks the tile touches", async () => {
    const base = new Map<string, Uint8Array>();
    await buildImage(base, { shape: [64, 64], chunks: [16, 16], levels: 2, axes: axesOf("yx") });
    const { store, reads } = countingStore(base);
    const image = await openMultiscale(store, { path: "img" });
    await readTile(image, { level: 0, x: 20, y: 10, width: 20, height: 10 });
    // x 20..39 touches chunk columns 1 and 2, y 10..19 rows 0 and 1
    expect(reads.sort()).toEqual(["img/0/0.1", "img/0/0.2", "img/0/1.1", "img/0/1.2"]);
  });

  it("puts rows first when the array stores x before y", async () => {
    const store = new Map<string, Uint8Array>();
    await buildImage(store, {
      shape: [12, 9],
      chunks: [5, 5],
      levels: 1,
      axes: [
        { name: "x", type: "space" },
        { name: "y", type: "space" },
      ],
    });
    const image = await openMultiscale(store, { path: "img" });
    const tile = await readTile(image, { level: 0, x: 2, y: 1, width: 4, height: 3 });
    const direct = await image.levels[0].array.get([slice(2, 6), slice(1, 4)]);
    expect(tile.shape).toEqual([3, 4]);
    for (let row = 0; row < 3; row++)
      for (let col = 0; col < 4; col++)
        expect(tile.data[row * 4 + col]).toBe(direct.data[col * 3 + row]);
  });

  it("refuses bad levels and indices with typed errors", async () => {
    const store = new Map<string, Uint8Array>();
    await buildImage(store, {
      shape: [2, 20, 20],
      chunks: [1, 8, 8],
      levels: 2,
      axes: axesOf("cyx"),
    });
    const image = await openMultiscale(store, { path: "img" });
    const tile = { x: 0, y: 0, width: 4, height: 4 };
    await expect(readTile(image, { ...tile, level: 2 })).rejects.toThrow(
      "level: must be a level index from 0 to 1, found 2",
    );
    await expect(readTile(image, { ...tile, level: 0, c: 2 })).rejects.toThrow(
      'c: 2 is outside the axis "c" (size 2)',
    );
    await expect(readTile(image, { ...tile, level: 0, x: 0.5 })).rejects.toThrow(OmeOptionError);
  });

  it("rejects with the AbortError of an aborted signal, before reading", async () => {
    const base = new Map<string, Uint8Array>();
    await buildImage(base, { shape: [64, 64], chunks: [16, 16], levels: 1, axes: axesOf("yx") });
    const { store, reads } = countingStore(base);
    const image = await openMultiscale(store, { path: "img" });
    const controller = new AbortController();
    controller.abort(new Error("view moved"));
    const e = await readTile(image, {
      level: 0,
      x: 0,
      y: 0,
      width: 64,
      height: 64,
      signal: controller.signal,
    }).catch((x) => x);
    expect(e.name).toBe("AbortError");
    expect(e.message).toBe("view moved");
    expect(reads).toEqual([]);
  });
});
