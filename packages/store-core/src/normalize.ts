import { mapAdapter } from "./map-adapter.js";
import type { Readable, StoreLike } from "./store.js";
import { checkStoreObject } from "./store-object.js";

/**
 * Turns what a user passed as a store into a store object: a `Map` is wrapped (the same
 * wrapper every time for the same map), a store is returned as it is.
 */
export function toStore(store: StoreLike): Readable {
  return store instanceof Map ? mapAdapter(store) : checkStoreObject(store);
}
