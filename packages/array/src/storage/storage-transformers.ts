import type { ArrayMetadata, JsonObject } from "@z/metadata";
import type { Readable } from "@z/store-core";
import { factories } from "./transformer-factories.js";

/** What a storage transformer is built with, besides the store it wraps. */
export interface StorageTransformerContext {
  /** The array's path in the store (`""` for the root). */
  path: string;
  /** The transformer's `configuration` from the metadata (`{}` when it has none). */
  configuration: JsonObject;
  /** The array's metadata. */
  metadata: ArrayMetadata;
}

/**
 * Builds a v3 storage transformer: a store that stands between an array and the store its chunks
 * are in, and may change how chunk keys map to stored bytes. It gets the store below it and
 * returns the one the array reads and writes its chunks through; metadata documents do not pass
 * through it. Give the result the capabilities of the store below (writes, listing) that the
 * array should keep: `ForwardingStore` of @z/store-core passes them on. Called synchronously,
 * once per array and store.
 */
export type StorageTransformerFactory = (
  store: Readable,
  context: StorageTransformerContext,
) => Readable;

/**
 * Registers a storage transformer by the name v3 metadata gives it in `storage_transformers`.
 * Arrays naming a transformer that is not registered do not open when it is marked
 * `must_understand` (the default); those marked `must_understand: false` open without it, with a
 * warning on the `array` logger.
 * @example
 * ```ts
 * registerStorageTransformer("my_prefix", (store, { configuration }) => new PrefixStore(store, String(configuration.prefix)));
 * ```
 * @category Extending
 */
export function registerStorageTransformer(name: string, factory: StorageTransformerFactory): void {
  if (typeof name !== "string" || name === "")
    throw new TypeError("A storage transformer needs a non-empty name");
  if (typeof factory !== "function")
    throw new TypeError(`The storage transformer ${JSON.stringify(name)} needs a factory function`);
  factories.set(name, factory);
}

/**
 * The names of the registered storage transformers.
 * @category Extending
 */
export function registeredStorageTransformers(): string[] {
  return [...factories.keys()];
}
