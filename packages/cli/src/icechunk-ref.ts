import { UsageError } from "./errors.js";

/** Whether a location names an Icechunk repository (`icechunk+<location>`). */
export function isIcechunkLocation(location: string): boolean {
  return /^icechunk\+/i.test(location);
}

/**
 * The location `--ref NAME` makes of an `icechunk+` source: the repository at that branch, tag
 * or snapshot id (replacing a `#ref=` the location carries).
 * @throws UsageError when the location is not an Icechunk repository
 */
export function withRef(location: string, ref: string | undefined, command: string): string {
  if (ref === undefined) return location;
  if (!isIcechunkLocation(location))
    throw new UsageError(
      `--ref names a branch, tag or snapshot of an Icechunk repository; ${location} is not one (write icechunk+ before its location)`,
      command,
    );
  const hash = location.indexOf("#");
  const params = new URLSearchParams(hash < 0 ? "" : location.slice(hash + 1));
  params.set("ref", ref);
  return `${hash < 0 ? location : location.slice(0, hash)}#${params}`;
}
