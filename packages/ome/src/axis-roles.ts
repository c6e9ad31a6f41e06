import type { Axis } from "./metadata/model.js";

/** Which dimension plays which part in a 2-D view; -1 where the image has no such axis. */
export interface AxisRoles {
  /** The horizontal axis. */
  x: number;
  /** The vertical axis. */
  y: number;
  /** The depth axis. */
  z: number;
  /** The channel axis. */
  c: number;
  /** The time axis. */
  t: number;
}

/**
 * The dimensions of x, y, z, c and t: an axis of that name, else by type (the space axes in
 * order `z, y, x` from the end, as the specification orders them; the channel and time axes).
 * When no axis says it is of type space, the last two axes are y and x.
 */
export function axisRoles(axes: readonly Axis[]): AxisRoles {
  const space = axes.flatMap((a, i) => (a.type === "space" ? [i] : []));
  const spatial = space.length >= 2 ? space : [axes.length - 2, axes.length - 1];
  const taken: number[] = [];
  // A named axis wins; otherwise the last spatial axis not yet given a part.
  const spatialRole = (name: string) => {
    let i = axes.findIndex((a) => a.name === name);
    if (i < 0) i = [...spatial].reverse().find((d) => !taken.includes(d)) ?? -1;
    if (i >= 0) taken.push(i);
    return i;
  };
  const other = (name: string, type: string) => {
    const i = axes.findIndex((a) => a.name === name);
    return i >= 0 ? i : axes.findIndex((a) => a.type === type);
  };
  const x = spatialRole("x");
  const y = spatialRole("y");
  const z = spatialRole("z");
  return { x, y, z, c: other("c", "channel"), t: other("t", "time") };
}
