import type { Readable } from "./store.js";

/**
 * A value's size in bytes from any store: its `getSize` when it has one (a `stat`, a `HEAD`),
 * otherwise by reading the value. `undefined` when the key does not exist, as `get` resolves
 * (zarr-python's `getsize` raises `FileNotFoundError` there instead).
 * @example
 * ```ts
 * const bytes = await getSizeOf(store, "a/c/0/0"); // undefined for a chunk never written
 * ```
 */
export function getSizeOf(
  store: Readable,
  key: string,
  options?: { signal?: AbortSignal },
): Promise<number | undefined> {
  return store.getSize ? store.getSize(key, options) : readSize(store, key, options);
}

/** A value's size found by reading it: what stores that keep no sizes apart fall back to. */
export async function readSize(
  store: Readable,
  key: string,
  options?: { signal?: AbortSignal },
): Promise<number | undefined> {
  return (await store.get(key, { signal: options?.signal }))?.length;
}
