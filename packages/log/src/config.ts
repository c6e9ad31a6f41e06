import { isLogThreshold, LEVEL_RANK, type LogThreshold } from "./levels.js";
import { currentSink } from "./sink.js";

/** The namespace that stands for every namespace in {@link setLogLevel} and `ZARR_LOG`. */
export const ALL_NAMESPACES = "*";

const thresholds = new Map<string, LogThreshold>();
let environmentRead = false;

/**
 * The configuration's version, bumped by every change so loggers can cache their threshold:
 * a field read, so a level check that is off costs one comparison.
 * @internal
 */
export const configVersion = { generation: 0 };

/**
 * Applies `ZARR_LOG` from the environment when there is one (Node, Deno, Bun), once, before the
 * first level check or setting, so settings made in code override it. A malformed value is reported
 * as a warning rather than thrown, so a typo in an environment variable cannot stop a program.
 */
function readEnvironment(): void {
  environmentRead = true;
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process
    ?.env;
  const spec = env?.ZARR_LOG;
  if (!spec) return;
  try {
    for (const [namespace, level] of parseLogSpec(spec)) thresholds.set(namespace, level);
    configVersion.generation++;
  } catch (error) {
    currentSink().warn(`zarr:log warn ignoring ZARR_LOG: ${(error as Error).message}`);
  }
}

/**
 * Sets how much a namespace reports: `setLogLevel("store", "debug")`, `setLogLevel("*",
 * "info")`, `setLogLevel("codec", "off")`. A namespace's setting covers its children
 * (`store` covers `store:fs`) unless a child has its own; the most specific setting wins.
 * `undefined` removes the namespace's own setting (it follows its parent again).
 * @throws TypeError for a level that is not debug, info, warn or off
 */
export function setLogLevel(namespace: string, level: LogThreshold | undefined): void {
  if (level !== undefined && !isLogThreshold(level))
    throw new TypeError(`Unknown log level ${JSON.stringify(level)}: use debug, info, warn or off`);
  if (!environmentRead) readEnvironment();
  const name = namespace === "" ? ALL_NAMESPACES : namespace;
  if (level === undefined) thresholds.delete(name);
  else thresholds.set(name, level);
  configVersion.generation++;
}

/** A namespace's own setting (from {@link setLogLevel} or `ZARR_LOG`), or undefined when it has none. */
export function getLogLevel(namespace: string): LogThreshold | undefined {
  if (!environmentRead) readEnvironment();
  return thresholds.get(namespace === "" ? ALL_NAMESPACES : namespace);
}

/** Turns every namespace off again and forgets every setting (the state at start-up without `ZARR_LOG`). */
export function resetLogLevels(): void {
  environmentRead = true;
  thresholds.clear();
  configVersion.generation++;
}

/** The threshold rank of a namespace: its own setting, else its nearest parent's, else off. */
export function thresholdRank(namespace: string): number {
  if (!environmentRead) readEnvironment();
  let name = namespace;
  for (;;) {
    const level = thresholds.get(name);
    if (level !== undefined) return LEVEL_RANK[level];
    const colon = name.lastIndexOf(":");
    if (colon < 0) break;
    name = name.slice(0, colon);
  }
  return LEVEL_RANK[thresholds.get(ALL_NAMESPACES) ?? "off"];
}

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

/** Applies a `ZARR_LOG`-style string on top of the current settings (see {@link parseLogSpec}). */
export function setLogLevels(spec: string): void {
  for (const [namespace, level] of parseLogSpec(spec)) setLogLevel(namespace, level);
}
