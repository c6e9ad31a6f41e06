import type { JsonObject, JsonValue } from "@z/zarr";

/** One OME-Zarr multiscale image: its levels (highest resolution first) and axis names. */
export interface Multiscale {
  /** The OME-Zarr version the attributes declare (`"0.4"`, `"0.5"`), if any. */
  version: string | undefined;
  /** The image's name, if given. */
  name: string | undefined;
  /** The arrays of the levels, as paths relative to the group. */
  levels: string[];
  /** The axis names (`["c", "z", "y", "x"]`), if given. */
  axes: string[] | undefined;
}

const isObject = (v: JsonValue | undefined): v is JsonObject =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * The multiscale images a group's attributes describe: OME-Zarr 0.5 keeps them under `ome`
 * (`zarr.json` attributes), 0.4 and earlier at the top level (`.zattrs`).
 */
export function multiscalesOf(attributes: JsonObject): Multiscale[] {
  const ome = isObject(attributes.ome) ? attributes.ome : undefined;
  const list = ome?.multiscales ?? attributes.multiscales;
  if (!Array.isArray(list)) return [];
  const out: Multiscale[] = [];
  for (const entry of list) {
    if (!isObject(entry) || !Array.isArray(entry.datasets)) continue;
    const levels = entry.datasets
      .map((d) => (isObject(d) && typeof d.path === "string" ? d.path : undefined))
      .filter((p): p is string => p !== undefined);
    if (levels.length === 0) continue;
    const axes = Array.isArray(entry.axes)
      ? entry.axes.map((a) => (typeof a === "string" ? a : isObject(a) ? String(a.name) : "?"))
      : undefined;
    const version = ome?.version ?? entry.version;
    out.push({
      version: typeof version === "string" ? version : undefined,
      name: typeof entry.name === "string" ? entry.name : undefined,
      levels,
      axes,
    });
  }
  return out;
}

/**
 * The level to open first: the highest resolution whose plane fits in `width` x `height`
 * pixels, else the lowest resolution there is. `planes` are the levels' [height, width].
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
