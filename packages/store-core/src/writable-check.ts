import { ReadOnlyError } from "./errors.js";
import type { Readable } from "./store.js";

/** The methods a store needs to be written: whole values replaced and removed. */
const WRITE_METHODS = ["set", "delete"] as const;

/**
 * The write methods (`set`, `delete`) a store lacks, in that order; empty for a writable store.
 * Arrays delete chunks that become equal to the fill value, so `set` alone is not enough.
 */
export function missingWriteMethods(store: Readable): string[] {
  const s = store as unknown as Record<string, unknown>;
  return WRITE_METHODS.filter((method) => typeof s[method] !== "function");
}

/**
 * The error for a write to a store that cannot be written: a store without `set` is read-only;
 * one with `set` but no `delete` is told which method to add.
 */
export function notWritableError(store: Readable, key: string, action: string): ReadOnlyError {
  const missing = missingWriteMethods(store);
  if (missing.length === 0 || missing.includes("set")) return new ReadOnlyError(key, action);
  return new ReadOnlyError(
    key,
    action,
    `the store has set() but no ${missing.map((m) => `${m}()`).join(" or ")} method; ` +
      "a writable store needs get(key), set(key, value) and delete(key)",
  );
}
