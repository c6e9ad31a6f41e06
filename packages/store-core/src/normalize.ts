import { MapStore } from "./map-store.js";
import type { Readable, StoreLike } from "./store.js";

const adapters = new WeakMap<Map<string, Uint8Array>, MapStore>();

/**
 * Turns what a user passed as a store into a store object: a `Map` is wrapped (the same
 * wrapper every time for the same map), a store is returned as it is.
 */
export function toStore(store: StoreLike): Readable {
  if (store instanceof Map) {
    let adapter = adapters.get(store);
    if (adapter === undefined) {
      adapter = new MapStore(store);
      adapters.set(store, adapter);
    }
    return adapter;
  }
  if (store === null || typeof store !== "object" || typeof store.get !== "function") {
    throw new TypeError("Expected a store (an object with an async get(key) method) or a Map");
  }
  return store;
}
