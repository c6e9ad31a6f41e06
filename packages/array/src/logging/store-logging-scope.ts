// Where a store enters the array layer: private to the @z packages. store-logging.ts holds the
// public side, which the package entry re-exports whole.
import type { Readable, StoreLike } from "@z/store-core";
import { toStoreAsync } from "@z/store-core/internal";
import { loadStoreLogging } from "../lazy-features.js";
import { storeLogger } from "./store-kind.js";

/**
 * Where a store enters the array layer (`open`, `createArray`, `createGroup`, ...): a store
 * object, a `Map` or a location string becomes a store, wrapped by `withStoreLogging` when the
 * store's logger is on at `debug`. The logging proxy (logging-proxy.ts) loads only then, so
 * an app that never logs requests does not download it.
 */
export async function enterStore(store: StoreLike | string): Promise<Readable> {
  const s = await toStoreAsync(store);
  const log = storeLogger(s);
  if (!log.enabled("debug")) return s;
  const { loggedStore } = await loadStoreLogging();
  return loggedStore(s, log);
}
