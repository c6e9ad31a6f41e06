// The asynchronous location resolver: private to the @z packages. location.ts holds the public side, which the
// package entry re-exports whole.
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
