import { isLogThreshold, type LogThreshold } from "./levels.js";
import { ALL_NAMESPACES, parseLogSpec } from "./log-spec.js";
import {
  configVersion,
  ensureEnvironmentRead,
  markEnvironmentRead,
  thresholds,
} from "./thresholds.js";

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
  ensureEnvironmentRead();
  const name = namespace === "" ? ALL_NAMESPACES : namespace;
  if (level === undefined) thresholds.delete(name);
  else thresholds.set(name, level);
  configVersion.generation++;
}

/** A namespace's own setting (from {@link setLogLevel} or `ZARR_LOG`), or undefined when it has none. */
export function getLogLevel(namespace: string): LogThreshold | undefined {
  ensureEnvironmentRead();
  return thresholds.get(namespace === "" ? ALL_NAMESPACES : namespace);
}

/**
 * Every namespace's own setting (from {@link setLogLevel} or `ZARR_LOG`), `"*"` for the one
 * that covers all: what `setLogLevel` calls would restore the configuration.
 */
export function logLevels(): Record<string, LogThreshold> {
  ensureEnvironmentRead();
  return Object.fromEntries(thresholds);
}

/** Turns every namespace off again and forgets every setting (the state at start-up without `ZARR_LOG`). */
export function resetLogLevels(): void {
  markEnvironmentRead();
  thresholds.clear();
  configVersion.generation++;
}

/** Applies a `ZARR_LOG`-style string on top of the current settings (see {@link parseLogSpec}). */
export function setLogLevels(spec: string): void {
  for (const [namespace, level] of parseLogSpec(spec)) setLogLevel(namespace, level);
}
