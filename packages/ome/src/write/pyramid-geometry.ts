import { OmeOptionError } from "../errors.js";
import type { Axis } from "../metadata/model.js";

const NAMED_AXES: Record<string, Axis> = {
  t: { name: "t", type: "time" },
  c: { name: "c", type: "channel" },
  z: { name: "z", type: "space" },
  y: { name: "y", type: "space" },
  x: { name: "x", type: "space" },
};

/**
 * The axes of a pyramid: the ones given (names of `t, c, z, y, x` get their types), or the
 * last `nd` of `t, c, z, y, x`.
 */
export function defaultAxes(given: readonly (Axis | string)[] | undefined, nd: number): Axis[] {
  if (given === undefined) {
    if (nd < 2 || nd > 5)
      throw new OmeOptionError(
        "axes",
        `must be given for ${nd} dimensions (OME-Zarr images have 2 to 5)`,
      );
    return ["t", "c", "z", "y", "x"].slice(5 - nd).map((n) => ({ ...NAMED_AXES[n] }));
  }
  if (given.length !== nd)
    throw new OmeOptionError(
      "axes",
      `must have ${nd} entries (the dimensions), found ${given.length}`,
    );
  return given.map((a) =>
    typeof a === "string" ? { ...(NAMED_AXES[a] ?? { name: a }) } : { ...a },
  );
}

/** The shapes of `levels` levels, each `ceil(n / factor)` of the one before along each axis. */
export function levelShapes(
  shape: readonly number[],
  factors: readonly number[],
  levels: number,
): number[][] {
  const shapes = [[...shape]];
  for (let k = 1; k < levels; k++)
    shapes.push(shapes[k - 1].map((n, d) => Math.ceil(n / factors[d])));
  return shapes;
}

/**
 * How many levels until the coarsest fits one chunk along the given axes (at least one
 * level; at most until the shrinking axes stop shrinking).
 */
export function pyramidLevels(
  shape: readonly number[],
  chunks: readonly number[],
  factors: readonly number[],
  axes: readonly number[],
): number {
  let current = [...shape];
  let levels = 1;
  const fits = (s: number[]) => axes.every((d) => s[d] <= chunks[d]);
  while (!fits(current)) {
    const next = current.map((n, d) => Math.ceil(n / factors[d]));
    if (next.every((n, d) => n === current[d])) break;
    current = next;
    levels++;
  }
  return levels;
}
