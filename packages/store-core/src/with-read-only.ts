import { ReadOnlyStore } from "./read-only-store.js";
import type { Readable } from "./store.js";

/**
 * A read-only view of any store (zarr-python's `with_read_only(True)`): the store's own
 * `withReadOnly()` when it has one, otherwise a {@link ReadOnlyStore} over it. Writes through
 * the view reject with `ReadOnlyError`; the store itself stays writable, and open.
 * @example
 * ```ts
 * const view = withReadOnly(store);
 * await view.set("k", bytes); // ReadOnlyError
 * ```
 */
export function withReadOnly(store: Readable): Readable {
  const own = (store as { withReadOnly?: () => Readable }).withReadOnly;
  return typeof own === "function" ? own.call(store) : new ReadOnlyStore(store);
}
