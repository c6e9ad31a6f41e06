import {
  isListable,
  isWritable,
  type Readable,
  type StoreCapabilities,
  type Writable,
} from "./store.js";

/**
 * What any store can do, under zarr-python's names: the store's own `supportsWrites`, ...
 * flags where it declares them (a read-only `FsStore` has `set` but `supportsWrites` false),
 * otherwise what its methods tell (`set` and `delete`, `setPartialValues`, the listing).
 * @example
 * ```ts
 * if (!storeCapabilities(store).supportsListing) console.log("open with consolidated metadata");
 * ```
 */
export function storeCapabilities(store: Readable): StoreCapabilities {
  const declared = store as Partial<StoreCapabilities> & Partial<Writable>;
  const writable = isWritable(store);
  return {
    supportsWrites: declared.supportsWrites ?? writable,
    supportsDeletes: declared.supportsDeletes ?? writable,
    supportsPartialWrites:
      declared.supportsPartialWrites ??
      (writable && typeof declared.setPartialValues === "function"),
    supportsListing: declared.supportsListing ?? isListable(store),
  };
}
