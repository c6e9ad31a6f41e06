import { UnsupportedOperationError } from "./errors.js";
import { folderPrefix } from "./keys.js";
import { isListable, type Listable, type Readable } from "./store.js";

/**
 * Whether no key lives under `prefix` (zarr-python's `is_empty`): `""` asks about the whole
 * store, and `"a/b"` about the folder `"a/b/"` (the key `"a/bc"` is not under it). Uses the
 * store's `isEmpty` when it has one, otherwise stops the listing at its first key.
 * @throws UnsupportedOperationError when the store cannot list its keys
 * @example
 * ```ts
 * if (await isEmptyOf(store, "scratch")) console.log("nothing under scratch/");
 * ```
 */
export function isEmptyOf(store: Readable, prefix = ""): Promise<boolean> {
  const own = (store as Partial<Listable>).isEmpty;
  if (typeof own === "function") return own.call(store, prefix);
  return hasNoKeys(store, prefix);
}

/** {@link isEmptyOf} from the listing: the first key listed under the prefix answers. */
export async function hasNoKeys(store: Readable, prefix = ""): Promise<boolean> {
  const folder = folderPrefix(prefix);
  if (!isListable(store)) {
    throw new UnsupportedOperationError(
      `Cannot tell whether ${JSON.stringify(folder)} is empty: the store cannot list its keys`,
    );
  }
  for await (const _ of store.listPrefix(folder)) return false;
  return true;
}
