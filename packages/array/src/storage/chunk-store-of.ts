import type { ArrayMetadata } from "@z/metadata";
import type { Readable } from "@z/store-core";
import { arrayLog } from "../logging/node-logging.js";
import { UnknownStorageTransformerError } from "./storage-transformer-error.js";
import { factories } from "./transformer-factories.js";

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
