/**
 * Colour maps as 256-entry lookup tables (RGB triplets), and the one rule that maps a value to
 * an entry: the contrast limits `[lo, hi]` stretch onto entries 0..255, values outside clamp.
 * The viewer's test computes the expected pixels with these same functions.
 */

/** Anchor colours at evenly spaced positions, interpolated linearly into a table. */
const ANCHORS: Record<string, [number, number, number][]> = {
  gray: [
    [0, 0, 0],
    [255, 255, 255],
  ],
  // Matplotlib's viridis and magma sampled at 0, 1/8, ..., 1.
  viridis: [
    [68, 1, 84],
    [72, 40, 120],
    [62, 73, 137],
    [49, 104, 142],
    [38, 130, 142],
    [31, 158, 137],
    [53, 183, 121],
    [110, 206, 88],
    [253, 231, 37],
  ],
  magma: [
    [0, 0, 4],
    [28, 16, 68],
    [79, 18, 123],
    [129, 37, 129],
    [181, 54, 122],
    [229, 80, 100],
    [251, 135, 97],
    [254, 194, 135],
    [252, 253, 191],
  ],
};

/** The names of the colour maps. */
export const COLORMAP_NAMES = Object.keys(ANCHORS);

/** The lookup table of a colour map: 256 RGB triplets, `table[3 * i + channel]`. */
export function colormapTable(name: string): Uint8Array {
  const anchors = ANCHORS[name];
  if (!anchors)
    throw new Error(`Unknown colour map "${name}"; known: ${COLORMAP_NAMES.join(", ")}`);
  const table = new Uint8Array(256 * 3);
  const segments = anchors.length - 1;
  for (let i = 0; i < 256; i++) {
    const position = (i / 255) * segments;
    const k = Math.min(Math.floor(position), segments - 1);
    const t = position - k;
    for (let c = 0; c < 3; c++)
      table[3 * i + c] = Math.round(anchors[k][c] * (1 - t) + anchors[k + 1][c] * t);
  }
  return table;
}

/**
 * The table entry a value maps to under contrast limits `[lo, hi]`: 0 at or below `lo`, 255 at
 * or above `hi`, linear in between; NaN maps to 0. With `hi <= lo` everything at or above `lo`
 * is 255.
 */
export function colormapIndex(value: number, lo: number, hi: number): number {
  if (Number.isNaN(value)) return 0;
  if (hi <= lo) return value >= lo ? 255 : 0;
  const t = (value - lo) / (hi - lo);
  return t <= 0 ? 0 : t >= 1 ? 255 : Math.round(t * 255);
}
