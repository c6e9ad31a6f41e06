// The viewer's tile arithmetic against a brute-force model: every level pixel that shows on
// screen lies in a requested tile, and every requested tile overlaps the view grown by the
// margin (so panning never reads chunks far from the screen).
import type { MultiscaleImage } from "@z/zarr/ome";
import { pickLevel } from "@z/zarr/ome";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type LevelGrid,
  levelForScale,
  MARGIN,
  type Rect,
  tileKey,
  tilesFor,
  type View,
} from "../viewer/src/tiles.js";
import { clampView, MAX_SCALE, zoomAbout } from "../viewer/src/viewport.js";

const grids = fc
  .record({
    height: fc.integer({ min: 1, max: 120 }),
    width: fc.integer({ min: 1, max: 120 }),
    ch: fc.integer({ min: 1, max: 40 }),
    cw: fc.integer({ min: 1, max: 40 }),
    fy: fc.constantFrom(1, 2, 4, 1.5),
    fx: fc.constantFrom(1, 2, 4, 1.5),
  })
  .map(
    ({ height, width, ch, cw, fy, fx }): LevelGrid => ({
      shape: [height, width],
      chunk: [ch, cw],
      factor: [fy, fx],
    }),
  );

const views = fc.record({
  x: fc.double({ min: -300, max: 400, noNaN: true }),
  y: fc.double({ min: -300, max: 400, noNaN: true }),
  scale: fc.constantFrom(0.125, 0.25, 0.5, 1, 1.5, 2, 3, 8),
  width: fc.integer({ min: 1, max: 300 }),
  height: fc.integer({ min: 1, max: 300 }),
});

/** The view's full-resolution rectangle grown by `margin` screen pixels (written out anew). */
const screenRect = (v: View, margin: number): Rect => ({
  x0: v.x - margin / v.scale,
  y0: v.y - margin / v.scale,
  x1: v.x + (v.width + margin) / v.scale,
  y1: v.y + (v.height + margin) / v.scale,
});

/** Whether [a0, a1) and [b0, b1) share some length. */
const overlaps = (a0: number, a1: number, b0: number, b1: number) => a0 < b1 && b0 < a1;

/** Whether level pixel (r, c) of a grid shows some area inside a full-resolution rectangle. */
const pixelIn = (grid: LevelGrid, r: number, c: number, rect: Rect) =>
  overlaps(r * grid.factor[0], (r + 1) * grid.factor[0], rect.y0, rect.y1) &&
  overlaps(c * grid.factor[1], (c + 1) * grid.factor[1], rect.x0, rect.x1);

describe("the viewer's tiles", () => {
  it("cover every visible pixel and lie within the view plus the margin", () => {
    fc.assert(
      fc.property(grids, views, fc.constantFrom(0, 16, MARGIN), (grid, view: View, margin) => {
        const tiles = tilesFor(grid, view, margin);
        const keys = tiles.map(tileKey);
        expect(new Set(keys).size).toBe(keys.length);
        const visible = screenRect(view, 0);
        const allowed = screenRect(view, margin);
        const [height, width] = grid.shape;
        for (const t of tiles) {
          // A tile is exactly one chunk, inside the plane, and overlaps view + margin.
          expect(t.y0).toBe(t.row * grid.chunk[0]);
          expect(t.x0).toBe(t.col * grid.chunk[1]);
          expect(t.y1).toBe(Math.min(height, (t.row + 1) * grid.chunk[0]));
          expect(t.x1).toBe(Math.min(width, (t.col + 1) * grid.chunk[1]));
          expect(t.y0 < t.y1 && t.x0 < t.x1).toBe(true);
          const [fy, fx] = grid.factor;
          expect(
            overlaps(t.y0 * fy, t.y1 * fy, allowed.y0, allowed.y1) &&
              overlaps(t.x0 * fx, t.x1 * fx, allowed.x0, allowed.x1),
          ).toBe(true);
        }
        for (let r = 0; r < height; r++) {
          for (let c = 0; c < width; c++) {
            if (!pixelIn(grid, r, c, visible)) continue;
            const covered = tiles.some((t) => t.y0 <= r && r < t.y1 && t.x0 <= c && c < t.x1);
            if (!covered) expect.fail(`pixel (${r}, ${c}) is on screen but in no tile`);
          }
        }
      }),
      { numRuns: 300 },
    );
  });

  it("draw the coarsest level whose pixels are no larger than a screen pixel", () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 2, max: 64 }), { maxLength: 6 }),
        fc.double({ min: 1 / 128, max: 16, noNaN: true }),
        (coarser, scale) => {
          const factors = [1, ...coarser];
          const level = levelForScale(factors, scale);
          const fine = (f: number) => f * scale <= 1 + 1e-9;
          if (level === 0) {
            // Level 0 only when no coarser level is fine enough, or it is the coarsest that is.
            expect(factors.filter((f) => fine(f) && f > 1)).toEqual([]);
          } else {
            expect(fine(factors[level])).toBe(true);
            for (const f of factors) if (fine(f)) expect(f).toBeLessThanOrEqual(factors[level]);
          }
        },
      ),
    );
  });

  it("pick the level @z/ome's pickLevel picks for the same view of an OME image", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 7 }),
        fc.double({ min: 1 / 200, max: 8, noNaN: true }),
        fc.integer({ min: 1, max: 2000 }),
        fc.integer({ min: 1, max: 2000 }),
        (count, scale, width, height) => {
          const factors = Array.from({ length: count }, (_, l) => 2 ** l);
          // Only what pickLevel reads: the axes, and each level's shape and pixel size.
          const image = {
            axes: [
              { name: "y", type: "space" },
              { name: "x", type: "space" },
            ],
            levels: factors.map((f, index) => ({
              index,
              shape: [Math.ceil(4096 / f), Math.ceil(4096 / f)],
              scale: [0.25 * f, 0.25 * f],
            })),
          } as unknown as MultiscaleImage;
          const region = { width: width / scale, height: height / scale };
          expect(levelForScale(factors, scale)).toBe(
            pickLevel(image, { width, height, region }).index,
          );
        },
      ),
    );
  });

  it("keep the image on screen while panning, and the point under the pointer while zooming", () => {
    const image = fc.tuple(fc.integer({ min: 1, max: 5000 }), fc.integer({ min: 1, max: 5000 }));
    fc.assert(
      fc.property(
        views,
        image,
        fc.double({ min: 0.01, max: 1, noNaN: true }),
        (view, img, least) => {
          const clamped = clampView(view, img, least);
          expect(clamped.scale).toBe(Math.min(MAX_SCALE, Math.max(least, view.scale)));
          // Along each axis, half of the image or of the screen (the smaller) stays in view.
          const rect = screenRect(clamped, 0);
          const shown = (a0: number, a1: number, extent: number) =>
            Math.min(a1, extent) - Math.max(a0, 0);
          const tolerance = 1e-6 * (1 + Math.abs(rect.x0) + Math.abs(rect.y0));
          expect(shown(rect.x0, rect.x1, img[1]) + tolerance).toBeGreaterThanOrEqual(
            Math.min(rect.x1 - rect.x0, img[1]) / 2,
          );
          expect(shown(rect.y0, rect.y1, img[0]) + tolerance).toBeGreaterThanOrEqual(
            Math.min(rect.y1 - rect.y0, img[0]) / 2,
          );
          // A view that already shows enough is left where it is.
          expect(clampView(clamped, img, least)).toEqual(clamped);
        },
      ),
    );
    fc.assert(
      fc.property(
        views,
        fc.double({ min: 0.01, max: 32, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (view, scale, u, v) => {
          const [sx, sy] = [u * view.width, v * view.height];
          const zoomed = zoomAbout(view, scale, sx, sy);
          expect(zoomed.scale).toBe(scale);
          expect(zoomed.x + sx / scale).toBeCloseTo(view.x + sx / view.scale, 6);
          expect(zoomed.y + sy / scale).toBeCloseTo(view.y + sy / view.scale, 6);
        },
      ),
    );
  });
});
