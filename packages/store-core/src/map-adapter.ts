// Shared inside the package, not public: the one MapStore of each `Map`, for `toStore` and for the
// asynchronous paths, which load it only when given a `Map` (store-object.ts).
import { MapStore } from "./map-store.js";

const adapters = new WeakMap<Map<string, Uint8Array>, MapStore>();

/** The store of a `Map`: the same MapStore every time for the same map. */
export function mapAdapter(map: Map<string, Uint8Array>): MapStore {
  let adapter = adapters.get(map);
  if (adapter === undefined) {
    adapter = new MapStore(map);
    adapters.set(map, adapter);
  }
  return adapter;
}
