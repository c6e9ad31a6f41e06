import type { Readable } from "@z/store-core";
import { isLoggingProxy, loggedStore } from "./logging-proxy.js";
import { storeLogger } from "./store-kind.js";

/**
 * The store as the array layer uses it: when the store's logger (`store:<kind>`) is on at
 * `debug`, a view of it that logs every request (method, key, range, bytes, duration) and
 * forwards everything else untouched (`instanceof`, extra methods and flags included); when
 * it is off, the store itself, so logging that is off costs nothing per request. Switch
 * logging on before opening or creating nodes to see their requests.
 */
export function withStoreLogging(store: Readable): Readable {
  if (isLoggingProxy(store)) return store;
  const log = storeLogger(store);
  return log.enabled("debug") ? loggedStore(store, log) : store;
}
