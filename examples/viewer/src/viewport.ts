import type { View } from "./tiles.js";

/** How far the view may zoom in: a full-resolution pixel at most this many screen pixels. */
export const MAX_SCALE = 32;

/** The smallest scale: the whole image fits, or the coarsest level is drawn 1:1 if larger. */
export function minScale(image: [number, number], coarsest: number, view: View): number {
  const fit = Math.min(view.width / image[1], view.height / image[0]);
  return Math.min(fit, 1 / coarsest, 1);
}

/**
 * The view moved so that the image stays on screen (at least half of the image or of the
 * screen, whichever is smaller, along each axis; `image` is the full-resolution [height,
 * width]), with the scale held between `least` and {@link MAX_SCALE}.
 */
export function clampView(view: View, image: [number, number], least: number): View {
  const scale = Math.min(MAX_SCALE, Math.max(least, view.scale));
  const clamp = (at: number, screen: number, extent: number) => {
    const keep = Math.min(screen, extent) / 2;
    return Math.min(extent - keep, Math.max(keep - screen, at));
  };
  const x = clamp(view.x, view.width / scale, image[1]);
  const y = clamp(view.y, view.height / scale, image[0]);
  return { ...view, scale, x, y };
}

/**
 * The view at another scale, keeping the full-resolution point under the screen point
 * `(sx, sy)` where it is (the view's centre by default).
 */
export function zoomAbout(view: View, scale: number, sx = view.width / 2, sy = view.height / 2) {
  const px = view.x + sx / view.scale;
  const py = view.y + sy / view.scale;
  return { ...view, scale, x: px - sx / scale, y: py - sy / scale };
}

/**
 * The level to open at: the finest whose plane fits in `width` x `height` screen pixels
 * (drawn 1:1), else the smallest there is. `planes` are the levels' [height, width].
 */
export function levelThatFits(planes: [number, number][], width: number, height: number): number {
  const fits = planes.findIndex(([h, w]) => h <= height && w <= width);
  if (fits >= 0) return fits;
  let smallest = 0;
  planes.forEach(([h, w], i) => {
    if (h * w < planes[smallest][0] * planes[smallest][1]) smallest = i;
  });
  return smallest;
}
