// Shared inside the @z packages, not public: where a store enters the array layer, kept out of store-logging.ts, which the index
// re-exports whole so the build can turn it into `export *` (tools/build/split-friendly-barrels.mjs).
import type { Readable, StoreLike } from "@z/store-core";
import { toStoreAsync } from "@z/store-core/internal";
import { withStoreLogging } from "./store-logging.js";

/**
 * Where a store enters the array layer (`open`, `createArray`, `createGroup`, ...): a store
 * object, a `Map` or a location string becomes a store, wrapped by {@link withStoreLogging}.
 */
export async function enterStore(store: StoreLike | string): Promise<Readable> {
  return withStoreLogging(await toStoreAsync(store));
}
