import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  levelForPixelSize,
  type MultiscaleImage,
  type MultiscaleLevel,
  OmeOptionError,
  openMultiscale,
  pickLevel,
} from "../src/index.js";
import { axesOf, buildImage } from "./build-image.js";

/** An image's level list as the metadata would give it: y and x halve at each level. */
function pyramid(levels: number, base: [number, number], pixel: [number, number]): MultiscaleImage {
  const top = [base[0] * 2 ** (levels - 1), base[1] * 2 ** (levels - 1)];
  const list = Array.from({ length: levels }, (_, k): MultiscaleLevel => {
    const f = 2 ** k;
    return {
      index: k,
      path: String(k),
      array: undefined as never,
      shape: [3, top[0] / f, top[1] / f],
      chunks: [1, 256, 256],
      scale: [1, pixel[0] * f, pixel[1] * f],
      translation: [0, 0, 0],
    };
  });
  return { axes: axesOf("cyx"), levels: list } as unknown as MultiscaleImage;
}

describe("pickLevel", () => {
  it("agrees with the rule in pixel counts: the coarsest level with at least the screen's pixels", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 7 }),
        fc.tuple(fc.integer({ min: 1, max: 300 }), fc.integer({ min: 1, max: 300 })),
        fc.tuple(
          fc.double({ min: 0.01, max: 50, noNaN: true }),
          fc.double({ min: 0.01, max: 50, noNaN: true }),
        ),
        fc.integer({ min: 1, max: 5000 }),
        fc.integer({ min: 1, max: 5000 }),
        fc.constantFrom(1, 1.5, 2, 3),
        fc.option(
          fc.tuple(fc.integer({ min: 1, max: 20_000 }), fc.integer({ min: 1, max: 20_000 })),
        ),
        (levels, base, pixel, width, height, dpr, region) => {
          const image = pyramid(levels, base, pixel);
          const [, H0, W0] = image.levels[0].shape;
          const [rh, rw] = region ?? [H0, W0];
          const chosen = pickLevel(image, {
            width,
            height,
            devicePixelRatio: dpr,
            region: region ? { width: rw, height: rh } : undefined,
          });
          // The model: the region spans rw * W_k / W_0 pixels of level k; it must cover the
          // device pixels along both axes. The last such level, else the first.
          let expected = 0;
          for (const [k, level] of image.levels.entries()) {
            const [, H, W] = level.shape;
            if (rw * W >= width * dpr * W0 && rh * H >= height * dpr * H0) expected = k;
          }
          expect(chosen.index).toBe(expected);
        },
      ),
      { numRuns: 3000 },
    );
  });

  it("answers for a physical pixel size: the coarsest level no coarser than asked", () => {
    const image = pyramid(4, [100, 100], [0.5, 0.25]);
    // pixels are 0.5 (y) by 0.25 (x) at level 0, doubling at each level
    expect(levelForPixelSize(image, 0.5).index).toBe(0); // level 1's y pixels (1) are too large
    expect(levelForPixelSize(image, { x: 0.5, y: 1 }).index).toBe(1);
    expect(levelForPixelSize(image, { x: 1, y: 2 }).index).toBe(2);
    expect(levelForPixelSize(image, 1000).index).toBe(3);
    expect(levelForPixelSize(image, 0.001).index).toBe(0); // finer than any level: the finest
    expect(() => levelForPixelSize(image, 0)).toThrow(OmeOptionError);
    expect(() => pickLevel(image, { width: Number.NaN, height: 1 })).toThrow(
      "width: must be a positive number, found NaN",
    );
  });

  it("picks from an opened image", async () => {
    const store = new Map<string, Uint8Array>();
    await buildImage(store, { shape: [64, 128], chunks: [32, 32], levels: 3, axes: axesOf("yx") });
    const image = await openMultiscale(store, { path: "img" });
    expect(pickLevel(image, { width: 128, height: 64 }).index).toBe(0);
    expect(pickLevel(image, { width: 64, height: 32 }).index).toBe(1);
    expect(pickLevel(image, { width: 20, height: 10 }).index).toBe(2);
    expect(pickLevel(image, { width: 20, height: 10, devicePixelRatio: 2 }).index).toBe(1);
    expect(pickLevel(image, { width: 40, height: 20, devicePixelRatio: 2 }).index).toBe(0);
    // a region of 32 × 16 level-0 pixels in a 16 × 8 view: level 1 has 16 × 8 pixels there
    const region = { x: 8, y: 8, width: 32, height: 16 };
    expect(pickLevel(image, { width: 16, height: 8, region }).index).toBe(1);
  });
});
