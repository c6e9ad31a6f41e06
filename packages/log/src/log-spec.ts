import { isLogThreshold, type LogThreshold } from "./levels.js";

/** The namespace that stands for every namespace in {@link setLogLevel} and `ZARR_LOG`. */
export const ALL_NAMESPACES = "*";

/**
 * Parses a `ZARR_LOG` value: comma-separated `namespace[:level]` items, e.g.
 * `store,codec:info` or `*:info,store:fs:debug`. A missing level means `debug` (naming a
 * namespace asks to see what it does). `*` (or `all`) names every namespace.
 * @returns the settings in order, later items overriding earlier ones
 * @throws TypeError naming the item that is not `namespace[:level]`
 */
export function parseLogSpec(spec: string): [string, LogThreshold][] {
  const settings: [string, LogThreshold][] = [];
  for (const raw of spec.split(",")) {
    const item = raw.trim();
    if (item === "") continue;
    const colon = item.lastIndexOf(":");
    const tail = colon < 0 ? "" : item.slice(colon + 1).toLowerCase();
    const [name, level]: [string, LogThreshold] = isLogThreshold(tail)
      ? [item.slice(0, colon), tail]
      : [item, "debug"];
    if (name === "" || /[^\w:*.-]/.test(name))
      throw new TypeError(`ZARR_LOG item ${JSON.stringify(item)} is not namespace[:level]`);
    settings.push([name === "all" ? ALL_NAMESPACES : name, level]);
  }
  return settings;
}
