import { mapBounded } from "./bounded-map.js";
import { UnsupportedOperationError } from "./errors.js";
import { getSizeOf } from "./get-size.js";
import { folderPrefix } from "./keys.js";
import { collectKeys } from "./listing.js";
import { isListable, type Listable, type PartialReadOptions, type Readable } from "./store.js";

/**
 * The total size in bytes of the values under `prefix` (`""` for the whole store; `"a/b"` means
 * the folder `"a/b/"`), from any listable store: its `getSizePrefix` when it has one (sizes
 * that come with the listing), otherwise a listing and one {@link getSizeOf} per key, at most
 * `concurrency` at once. A key deleted between the listing and its size counts nothing.
 * @throws UnsupportedOperationError when the store cannot list its keys
 * @example
 * ```ts
 * const stored = await getSizePrefixOf(store, "temperature"); // the array's bytes on disk
 * ```
 */
export function getSizePrefixOf(
  store: Readable,
  prefix = "",
  options?: PartialReadOptions,
): Promise<number> {
  const own = (store as Partial<Listable>).getSizePrefix;
  if (typeof own === "function") return own.call(store, prefix, options);
  return sumSizes(store, prefix, options);
}

/** {@link getSizePrefixOf} by listing and sizing each key: the fallback of stores without sizes in their listing. */
export async function sumSizes(
  store: Readable,
  prefix = "",
  options?: PartialReadOptions,
): Promise<number> {
  const folder = folderPrefix(prefix);
  if (!isListable(store)) {
    throw new UnsupportedOperationError(
      `Cannot sum the sizes under ${JSON.stringify(folder)}: the store cannot list its keys`,
    );
  }
  const keys = await collectKeys(store.listPrefix(folder));
  const sizes = await mapBounded(
    keys,
    async (key) => (await getSizeOf(store, key, options)) ?? 0,
    options,
  );
  return sizes.reduce((total, size) => total + size, 0);
}
