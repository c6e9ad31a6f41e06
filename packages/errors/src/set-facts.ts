// The facts writer: private to the @z packages. zarr-error.ts holds the public side, which the
// package entry re-exports whole.
import type { ErrorFacts } from "./zarr-error.js";

/**
 * Records facts on an error: `key`, `path` and `codec` (and `cause`); with `keep`, a fact the
 * error already carries stays as it is (the innermost layer knows best).
 */
export function setFacts(error: Error, facts: ErrorFacts, keep: boolean): void {
  const target = error as Error & Record<string, unknown>;
  for (const fact of ["key", "path", "codec"] as const) {
    const value = facts[fact];
    if (value === undefined || (keep && target[fact] !== undefined)) continue;
    target[fact] = value;
  }
  if ("cause" in facts && facts.cause !== undefined && !(keep && error.cause !== undefined)) {
    error.cause = facts.cause;
  }
}
