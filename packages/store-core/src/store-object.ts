// Shared inside the package, not public: the store check of normalize.ts, and what `toStore` does
// for the asynchronous paths (`resolveStore`, `toStoreAsync`), which load MapStore only for a `Map`.
import type { Readable, StoreLike } from "./store.js";

/**
 * Checks that a value other than a `Map` is a store (an object with a `get` method).
 * @throws TypeError otherwise
 */
export function checkStoreObject(store: unknown): Readable {
  if (
    store === null ||
    typeof store !== "object" ||
    typeof (store as Readable).get !== "function"
  ) {
    throw new TypeError("Expected a store (an object with an async get(key) method) or a Map");
  }
  return store as Readable;
}

/**
 * What `toStore` makes of a store or a `Map`, loading the `Map` adapter (map-adapter.ts and
 * MapStore) only when given a `Map`: an app that passes store objects does not download it.
 */
export async function toStoreLazily(store: StoreLike): Promise<Readable> {
  if (!(store instanceof Map)) return checkStoreObject(store);
  const { mapAdapter } = await import("./map-adapter.js");
  return mapAdapter(store);
}
