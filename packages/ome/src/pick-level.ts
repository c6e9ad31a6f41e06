import { axisRoles } from "./axis-roles.js";
import { OmeOptionError } from "./errors.js";
import type { MultiscaleImage, MultiscaleLevel } from "./multiscale-image.js";

/** A part of the image, in pixels of the finest level (level 0). */
export interface ImageRegion {
  /** Left edge (default 0). */
  x?: number;
  /** Top edge (default 0). */
  y?: number;
  /** Width. */
  width: number;
  /** Height. */
  height: number;
}

/** The screen a view fills, for {@link pickLevel}. */
export interface Viewport {
  /** The view's width in CSS pixels. */
  width: number;
  /** The view's height in CSS pixels. */
  height: number;
  /**
   * The part of the image the view shows, in pixels of level 0. Default: the whole image
   * (level 0's x and y extent), as when the image is fitted to the view.
   */
  region?: ImageRegion;
  /** Device pixels per CSS pixel (`window.devicePixelRatio`). Default 1. */
  devicePixelRatio?: number;
}

/** A physical pixel size: one for both axes, or each of x and y (in the axes' units). */
export type PixelSize = number | { x: number; y: number };

/** Slack in comparisons of pixel sizes, so that float rounding never flips a choice. */
const TOLERANCE = 1e-9;

function positive(option: string, value: number): number {
  if (!(Number.isFinite(value) && value > 0))
    throw new OmeOptionError(option, `must be a positive number, found ${value}`);
  return value;
}

/**
 * The level for a target pixel size: the coarsest level whose pixels are no larger than
 * `size` along x and along y (so it shows at least as much detail as asked); when every level's
 * pixels are larger, the finest level. "Coarsest" is the largest pixel area (x scale times y
 * scale); on a tie, the first in the metadata's order.
 *
 * @example
 * ```ts
 * const level = levelForPixelSize(image, 0.5); // pixels of at most 0.5 units (µm) along x and y
 * ```
 * @throws OmeOptionError for a size that is not a positive number
 * @category OME-Zarr
 */
export function levelForPixelSize(image: MultiscaleImage, size: PixelSize): MultiscaleLevel {
  const sx = positive("size.x", typeof size === "number" ? size : size.x);
  const sy = positive("size.y", typeof size === "number" ? size : size.y);
  const { x, y } = axisRoles(image.axes);
  let best: MultiscaleLevel | undefined;
  let finest = image.levels[0];
  const area = (l: MultiscaleLevel) => l.scale[x] * l.scale[y];
  for (const level of image.levels) {
    if (area(level) < area(finest)) finest = level;
    const fits = level.scale[x] <= sx * (1 + TOLERANCE) && level.scale[y] <= sy * (1 + TOLERANCE);
    if (fits && (best === undefined || area(level) > area(best))) best = level;
  }
  return best ?? finest;
}

/**
 * The level to draw a view from: the coarsest level whose resolution is at least the
 * screen's. The view's region of the image spans `region.width × region.height` level-0
 * pixels, whose physical extent divided by the device pixels (`width × devicePixelRatio`,
 * `height × devicePixelRatio`) is the physical size of one screen pixel; the level chosen is
 * {@link levelForPixelSize} of that size: the coarsest whose pixels are no larger than a
 * screen pixel along both x and y, or the finest when even its pixels are larger (zoomed in
 * beyond the data).
 *
 * @example
 * ```ts
 * const level = pickLevel(image, { width: 800, height: 600 }); // the whole image in 800×600
 * const zoomed = pickLevel(image, {
 *   width: 800,
 *   height: 600,
 *   region: { x: 1000, y: 1000, width: 400, height: 300 },
 * });
 * ```
 * @throws OmeOptionError for a size that is not a positive number
 * @category OME-Zarr
 */
export function pickLevel(image: MultiscaleImage, viewport: Viewport): MultiscaleLevel {
  const { x, y } = axisRoles(image.axes);
  const base = image.levels[0];
  const ratio = positive("devicePixelRatio", viewport.devicePixelRatio ?? 1);
  const screenW = positive("width", viewport.width) * ratio;
  const screenH = positive("height", viewport.height) * ratio;
  const regionW = positive("region.width", viewport.region?.width ?? base.shape[x]);
  const regionH = positive("region.height", viewport.region?.height ?? base.shape[y]);
  return levelForPixelSize(image, {
    x: (regionW * base.scale[x]) / screenW,
    y: (regionH * base.scale[y]) / screenH,
  });
}
