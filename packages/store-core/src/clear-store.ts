import { UnsupportedOperationError } from "./errors.js";
import { isWritable, type Readable } from "./store.js";

/**
 * Removes every key of a store (zarr-python's `clear`), with `deletePrefix("")`: the one
 * method every writable store has (a `LoggingStore`'s or `CachingStore`'s own `clear` forgets
 * what the wrapper recorded, not the keys). A read-only store rejects with `ReadOnlyError`.
 * @throws UnsupportedOperationError when the store cannot be written
 * @example
 * ```ts
 * await clearStore(scratch); // as new
 * ```
 */
export async function clearStore(
  store: Readable,
  options?: { signal?: AbortSignal },
): Promise<void> {
  if (!isWritable(store)) {
    throw new UnsupportedOperationError("Cannot clear a store that cannot be written");
  }
  await store.deletePrefix("", options);
}
