// The level settings the loggers read: private to the @z packages. config.ts holds the public side, which the
// package entry re-exports whole.
import { LEVEL_RANK, type LogThreshold } from "./levels.js";
import { ALL_NAMESPACES, parseLogSpec } from "./log-spec.js";
import { currentSink } from "./sink-current.js";

/** Each namespace's own setting (from `setLogLevel` or `ZARR_LOG`), shared by config and loggers. */
export const thresholds = new Map<string, LogThreshold>();
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
  markEnvironmentRead();
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

/** Reads `ZARR_LOG` unless it has been read (or settings were reset) already. */
export function ensureEnvironmentRead(): void {
  if (!environmentRead) readEnvironment();
}

/** Records that `ZARR_LOG` no longer applies (read, or forgotten by a reset). */
export function markEnvironmentRead(): void {
  environmentRead = true;
}

/** The threshold rank of a namespace: its own setting, else its nearest parent's, else off. */
export function thresholdRank(namespace: string): number {
  ensureEnvironmentRead();
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
