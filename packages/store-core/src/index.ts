/**
 * Store interfaces, key rules, byte ranges, errors and wrapper stores shared by every `@z` store.
 * @packageDocumentation
 */
export { ByteLruCache } from "./byte-lru.js";
export { type CacheStats, CachingStore, type CachingStoreOptions } from "./caching-store.js";
export {
  type CoalescedRange,
  type CoalescingStats,
  CoalescingStore,
  type CoalescingStoreOptions,
  coalesceRanges,
} from "./coalescing-store.js";
export {
  checkRangesRead,
  checkRead,
} from "./entry-checks.js";
export {
  AbortError,
  ConflictError,
  type ErrorFacts,
  InvalidKeyError,
  isZarrError,
  locateError,
  NotFoundError,
  ReadOnlyError,
  StoreError,
  TooManyConflictsError,
  throwIfAborted,
  UnsupportedOperationError,
  ZARR_ERROR_BRAND,
  ZarrError,
  type ZarrErrorMap,
  type ZarrErrorName,
  type ZarrErrorOptions,
} from "./errors.js";
export { ForwardingStore } from "./forwarding-store.js";
export {
  joinKey,
  MAX_NODE_PATH_DEPTH,
  normalizePath,
  prefixOf,
  validateKey,
  validatePrefix,
} from "./keys.js";
export { collectKeys, groupDirListing } from "./listing.js";
export { registerStore, resolveStore, type StoreFactory, schemeOf } from "./location.js";
export { MapStore } from "./map-store.js";
export { toStore } from "./normalize.js";
export {
  type ByteRange,
  InvalidRangeError,
  resolveRange,
  sliceRange,
  validateRange,
} from "./range.js";
export {
  getRangesOf,
  readEachRange,
} from "./ranges-of.js";
export {
  type DirListing,
  type FullStore,
  type GetOptions,
  isListable,
  isWritable,
  type Listable,
  type Readable,
  type SetOptions,
  type Store,
  type StoreLike,
  type VersionedValue,
  type Writable,
  type WritableStore,
} from "./store.js";
export {
  LoggingStore,
  PrefixStore,
  ReadOnlyStore,
  type SignalOptions,
  type StoreRequest,
} from "./wrappers.js";
export {
  fromZarritaStore,
  type ZarritaRangeQuery,
  type ZarritaStyleStore,
} from "./zarrita-adapter.js";
