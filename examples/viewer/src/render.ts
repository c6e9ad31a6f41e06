import { colormapIndex } from "./colormaps.js";

/** A 2-D plane of numbers: `value(row, col)` reads it whatever its memory layout. */
export interface Plane {
  /** Rows (the image height). */
  height: number;
  /** Columns (the image width). */
  width: number;
  /** The value at a pixel. */
  value(row: number, col: number): number;
}

/** RGBA pixels of a plane through a colour map table and contrast limits. */
export function renderPlane(plane: Plane, table: Uint8Array, lo: number, hi: number): ImageData {
  const { width, height } = plane;
  const pixels = new Uint8ClampedArray(width * height * 4);
  for (let r = 0; r < height; r++) {
    for (let c = 0; c < width; c++) {
      const entry = 3 * colormapIndex(plane.value(r, c), lo, hi);
      const p = 4 * (r * width + c);
      pixels[p] = table[entry];
      pixels[p + 1] = table[entry + 1];
      pixels[p + 2] = table[entry + 2];
      pixels[p + 3] = 255;
    }
  }
  return new ImageData(pixels, width, height);
}

/** The smallest and largest finite values of a plane (for automatic contrast limits). */
export function planeRange(plane: Plane): [number, number] {
  let lo = Number.POSITIVE_INFINITY;
  let hi = Number.NEGATIVE_INFINITY;
  for (let r = 0; r < plane.height; r++) {
    for (let c = 0; c < plane.width; c++) {
      const v = plane.value(r, c);
      if (!Number.isFinite(v)) continue;
      if (v < lo) lo = v;
      if (v > hi) hi = v;
    }
  }
  return lo <= hi ? [lo, hi] : [0, 1];
}
