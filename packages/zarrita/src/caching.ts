import { defineStoreExtension } from "./extensions.js";
import type { AbsolutePath, RangeQuery, Readable } from "./store.js";

/** Options of {@link withByteCaching}. */
export interface ByteCachingOptions {
  /** Where answers are kept (default a new `Map`); share one between stores to share answers. */
  cache?: Map<string, Uint8Array | undefined>;
  /**
   * The cache key of a read (a whole value when `range` is undefined), or undefined to not cache
   * it. The default caches every read, ranges under their exact bounds.
   */
  keyFor?: (path: AbsolutePath, range?: RangeQuery) => string | undefined;
}

// NUL cannot occur in a store path, so it separates a path from its range in a cache key.
function defaultKeyFor(path: AbsolutePath, range?: RangeQuery): string {
  if (range === undefined) return path;
  if ("suffixLength" in range) return `${path}\0-${range.suffixLength}`;
  return `${path}\0${range.offset}+${range.length}`;
}

/**
 * A store that remembers what it read (zarrita's `withByteCaching`): whole values and ranges,
 * missing keys included, in a `Map` that grows until dropped (pass `keyFor` to cache only some
 * reads, such as metadata). For a cache bounded by bytes, use `@z/store-core`'s `CachingStore`.
 * @example
 * ```ts
 * const store = withByteCaching(new FetchStore(url), {
 *   keyFor: (path, range) => (range ? undefined : path),
 * });
 * ```
 * @category Stores
 */
export const withByteCaching = defineStoreExtension(
  (inner: Readable, options: ByteCachingOptions | undefined) => {
    const cache = options?.cache ?? new Map<string, Uint8Array | undefined>();
    const keyFor = options?.keyFor ?? defaultKeyFor;
    async function cached(
      key: string | undefined,
      read: () => Promise<Uint8Array | undefined> | Uint8Array | undefined,
    ): Promise<Uint8Array | undefined> {
      if (key !== undefined && cache.has(key)) return cache.get(key);
      const value = await read();
      if (key !== undefined) cache.set(key, value);
      return value;
    }
    const overrides: Pick<Readable, "get" | "getRange"> = {
      get: (path, opts) => cached(keyFor(path), () => inner.get(path, opts)),
    };
    const getRange = inner.getRange?.bind(inner);
    // Only a store that reads ranges gets a caching getRange: zarrita asks `"getRange" in store`.
    if (getRange) {
      overrides.getRange = (path, range, opts) =>
        cached(keyFor(path, range), () => getRange(path, range, opts));
    }
    return overrides;
  },
);
