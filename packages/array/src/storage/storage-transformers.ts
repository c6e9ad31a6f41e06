import type { ArrayMetadata, JsonObject } from "@z/metadata";
import type { Readable } from "@z/store-core";
import { arrayLog } from "../logging/node-logging.js";
import { UnknownStorageTransformerError } from "./storage-transformer-error.js";

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

const factories = new Map<string, StorageTransformerFactory>();

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

/** Wrapped stores by store, array path and transformer list, so every array object of one array shares one. */
const wrapped = new WeakMap<Readable, Map<string, Readable>>();
/** Warnings already given, so reopening an array does not repeat them. */
const warned = new WeakMap<Readable, Set<string>>();

/**
 * The store an array's chunks go through: the store itself, or the stack its metadata's
 * `storage_transformers` build over it (the first listed is the one the array talks to). The
 * same store object comes back for every array object of the array, so writes of a chunk from
 * two of them still take turns.
 * @throws UnknownStorageTransformerError for an unregistered transformer readers must understand
 */
export function chunkStoreOf(store: Readable, path: string, metadata: ArrayMetadata): Readable {
  const listed = metadata.storageTransformers;
  if (listed.length === 0) return store;
  const signature = `${path}\0${JSON.stringify(listed)}`;
  const cached = wrapped.get(store)?.get(signature);
  if (cached) return cached;
  let result = store;
  for (const transformer of [...listed].reverse()) {
    const factory = factories.get(transformer.name);
    if (factory) {
      const { configuration } = transformer;
      result = factory(result, { path, configuration, metadata });
    } else if (transformer.mustUnderstand) {
      throw new UnknownStorageTransformerError(transformer.name, path, [...factories.keys()]);
    } else {
      warnSkipped(store, path, transformer.name);
    }
  }
  let byPath = wrapped.get(store);
  if (!byPath) wrapped.set(store, (byPath = new Map()));
  byPath.set(signature, result);
  return result;
}

function warnSkipped(store: Readable, path: string, name: string): void {
  let seen = warned.get(store);
  if (!seen) warned.set(store, (seen = new Set()));
  if (seen.has(`${path}\0${name}`)) return;
  seen.add(`${path}\0${name}`);
  arrayLog.warn(
    `ignored the storage transformer ${JSON.stringify(name)} of /${path}: it is not registered and marked must_understand: false`,
    { path, transformer: name },
  );
}
