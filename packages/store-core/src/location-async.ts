// Shared inside the @z packages, not public: the asynchronous location resolver, kept out of location.ts, which the index
// re-exports whole so the build can turn it into `export *` (tools/build/split-friendly-barrels.mjs).
import { resolveStore } from "./location.js";
import type { Readable, StoreLike } from "./store.js";
import { toStoreLazily } from "./store-object.js";

/**
 * A store from what a user passed: a store object, a `Map`, or a location string resolved
 * through the registered schemes (`"https://…"`, `"zip:…"`, a path in Node).
 */
export async function toStoreAsync(store: StoreLike | string): Promise<Readable> {
  return typeof store === "string" ? resolveStore(store) : toStoreLazily(store);
}
