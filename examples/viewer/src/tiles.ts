/**
 * Which tiles a view needs. A tile is one chunk of a level's displayed plane (the chunk grid
 * along the y and x axes), so reading a tile reads exactly one chunk, and a chunk is read only
 * when some of it is on screen or within the margin around the screen.
 *
 * Coordinates: the view is placed in full-resolution pixels (level 0): `(x, y)` is the
 * full-resolution point at the canvas's top-left corner and `scale` is screen pixels per
 * full-resolution pixel. A level's pixel covers `factor` full-resolution pixels per axis.
 */

/** The part of the image on screen. */
export interface View {
  /** Full-resolution column at the canvas's left edge. */
  x: number;
  /** Full-resolution row at the canvas's top edge. */
  y: number;
  /** Screen pixels per full-resolution pixel (2 = zoomed in twice, 0.25 = out four times). */
  scale: number;
  /** The canvas's width in screen pixels. */
  width: number;
  /** The canvas's height in screen pixels. */
  height: number;
}

/** A level's displayed plane and its chunk grid. */
export interface LevelGrid {
  /** The plane's [height, width] in the level's pixels. */
  shape: [number, number];
  /** The chunk's [height, width] along the displayed axes. */
  chunk: [number, number];
  /** Full-resolution pixels per level pixel, [along y, along x]. */
  factor: [number, number];
}

/** One tile: a chunk's grid position and the level pixels it covers (end exclusive). */
export interface Tile {
  row: number;
  col: number;
  y0: number;
  x0: number;
  y1: number;
  x1: number;
}

/** A rectangle in full-resolution pixels, end exclusive. */
export interface Rect {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/**
 * The margin read around the view, in screen pixels on every side: tiles that a short pan
 * brings on screen are already loaded, and tiles further out than this are neither read nor
 * kept (their reads are aborted when the view leaves them).
 */
export const MARGIN = 128;

/** The full-resolution rectangle the view shows, grown by `margin` screen pixels per side. */
export function viewRect(view: View, margin = 0): Rect {
  const pad = margin / view.scale;
  return {
    x0: view.x - pad,
    y0: view.y - pad,
    x1: view.x + view.width / view.scale + pad,
    y1: view.y + view.height / view.scale + pad,
  };
}

/**
 * The tiles of a level that the view (grown by `margin` screen pixels per side) overlaps,
 * nearest the view's centre first so the middle of the screen fills in first.
 */
export function tilesFor(grid: LevelGrid, view: View, margin = MARGIN): Tile[] {
  const rect = viewRect(view, margin);
  const [height, width] = grid.shape;
  const [ch, cw] = grid.chunk;
  const [fy, fx] = grid.factor;
  // The level pixels the rectangle touches, clipped to the plane.
  const top = Math.max(0, Math.floor(rect.y0 / fy));
  const left = Math.max(0, Math.floor(rect.x0 / fx));
  const bottom = Math.min(height, Math.ceil(rect.y1 / fy));
  const right = Math.min(width, Math.ceil(rect.x1 / fx));
  const tiles: Tile[] = [];
  if (top >= bottom || left >= right) return tiles;
  for (let row = Math.floor(top / ch); row * ch < bottom; row++) {
    for (let col = Math.floor(left / cw); col * cw < right; col++) {
      tiles.push({
        row,
        col,
        y0: row * ch,
        x0: col * cw,
        y1: Math.min(height, (row + 1) * ch),
        x1: Math.min(width, (col + 1) * cw),
      });
    }
  }
  const cy = (rect.y0 + rect.y1) / 2 / fy;
  const cx = (rect.x0 + rect.x1) / 2 / fx;
  const distance = (t: Tile) => Math.hypot((t.y0 + t.y1) / 2 - cy, (t.x0 + t.x1) / 2 - cx);
  return tiles.sort((a, b) => distance(a) - distance(b));
}

/**
 * The level to draw at a scale: the coarsest whose pixels are no larger than a screen pixel
 * (so nothing is drawn blurrier than the screen can show), or level 0 when zoomed in past full
 * resolution. `factors` are the levels' full-resolution pixels per level pixel (the larger of
 * the two axes'), finest first.
 */
export function levelForScale(factors: readonly number[], scale: number): number {
  let best = 0;
  factors.forEach((factor, level) => {
    // A hair of tolerance: 1 / (1/2) must count as 2.
    if (factor * scale <= 1 + 1e-9 && factor > factors[best]) best = level;
  });
  return best;
}

/** A tile's identity among the tiles of one plane (level and other axes fixed elsewhere). */
export function tileKey(tile: Pick<Tile, "row" | "col">): string {
  return `${tile.row},${tile.col}`;
}
