import { ByteLruCache } from "./byte-lru.js";
import { throwIfAborted } from "./errors.js";
import { ForwardingStore } from "./forwarding-store.js";
import { type ByteRange, sliceRange, validateRange } from "./range.js";
import { getRangesOf } from "./ranges-of.js";
import {
  type GetOptions,
  isWritable,
  type Readable,
  type SetOptions,
  type Writable,
} from "./store.js";

/** Options of a {@link CachingStore}. */
export interface CachingStoreOptions {
  /** Bound on the bytes held by the cache (default 64 MiB). */
  maxBytes?: number;
  /**
   * Values (or ranges) larger than this pass through without being cached, so one huge read
   * cannot flush everything else (default a quarter of `maxBytes`).
   */
  maxEntryBytes?: number;
}

/** Hit and miss counts of a {@link CachingStore}, one per value or range asked for. */
export interface CacheStats {
  hits: number;
  misses: number;
}

// NUL cannot occur in a valid key, so it separates the key from the range in a cache id.
const SEPARATOR = "\0";
const WHOLE = "*";

function rangeId(range: ByteRange | undefined): string {
  if (range === undefined) return WHOLE;
  if ("suffix" in range) return `-${range.suffix}`;
  return "length" in range ? `${range.offset}+${range.length}` : `${range.offset}+`;
}

/**
 * A read cache in front of a slow store (HTTP, zip over HTTP): whole values and byte ranges are
 * kept in a least-recently-used cache bounded by bytes. A cached whole value also answers every
 * range of it; a range is otherwise cached under its exact bounds. Writes and deletes made
 * through this store drop what is cached for their keys (writes made behind its back are not
 * seen: wrap only stores nobody else writes, or {@link CachingStore.clear} when they do).
 * Missing keys are not cached. The cache keeps copies and hands out copies, so a caller changing
 * what it read cannot change the cache (a miss returns what the wrapped store returned).
 *
 * @example
 * ```ts
 * const store = new CachingStore(new HttpStore("https://example.com/data.zarr"), { maxBytes: 256 << 20 });
 * ```
 * @category Stores
 */
export class CachingStore extends ForwardingStore {
  /** Hits and misses so far. */
  readonly stats: CacheStats = { hits: 0, misses: 0 };
  readonly #cache: ByteLruCache<string, Uint8Array>;
  readonly #maxEntryBytes: number;
  /** Cache ids held per key, to drop a key's entries on a write. */
  readonly #idsByKey = new Map<string, Set<string>>();
  /** Bumped by every write: a read that started before a write must not cache what it read. */
  #epoch = 0;

  constructor(inner: Readable, options: CachingStoreOptions = {}) {
    super(inner);
    const maxBytes = options.maxBytes ?? 64 * 1024 * 1024;
    this.#maxEntryBytes = options.maxEntryBytes ?? Math.floor(maxBytes / 4);
    this.#cache = new ByteLruCache(
      maxBytes,
      (value) => value.byteLength,
      (id) => this.#unindex(id),
    );
    const has = inner.has;
    if (has) {
      this.has = async (key, options) => {
        throwIfAborted(options?.signal);
        if (this.#idsByKey.has(key)) return true;
        return has.call(inner, key, options);
      };
    }
    if (isWritable(inner)) this.#forwardWrites(inner);
    // A version must be the stored one, never a cached guess: versioned reads always reach
    // the wrapped store (and refresh the cache with what they read).
    const getVersioned = this.getVersioned;
    if (getVersioned) {
      this.getVersioned = async (key, options) => {
        const epoch = this.#epoch;
        const versioned = await getVersioned(key, options);
        if (versioned) this.#store(key, undefined, versioned.value, epoch);
        return versioned;
      };
    }
  }
  /** Bytes held by the cache now. */
  get cachedBytes(): number {
    return this.#cache.bytes;
  }

  /** Drops everything cached (after the wrapped store was changed behind this one's back). */
  clear(): void {
    this.#cache.clear();
    this.#idsByKey.clear();
    this.#epoch++;
  }

  // Keys pass through unchecked (the wrapped store checks them; only keys it accepted are
  // ever cached); ranges are checked here, since cached values answer them.
  override async get(key: string, options?: GetOptions): Promise<Uint8Array | undefined> {
    if (options?.range) validateRange(options.range);
    throwIfAborted(options?.signal);
    const hit = this.#lookup(key, options?.range);
    if (hit) {
      this.stats.hits++;
      return hit;
    }
    this.stats.misses++;
    const epoch = this.#epoch;
    const value = await this.inner.get(key, options);
    if (value !== undefined) this.#store(key, options?.range, value, epoch);
    return value;
  }

  async getRanges(
    key: string,
    ranges: readonly ByteRange[],
    options?: { signal?: AbortSignal },
  ): Promise<Uint8Array[] | undefined> {
    for (const range of ranges) validateRange(range);
    throwIfAborted(options?.signal);
    // No range to look up tells nothing about whether the key exists: ask the wrapped store.
    if (ranges.length === 0) return getRangesOf(this.inner, key, ranges, options);
    const parts: Uint8Array[] = new Array(ranges.length);
    const missing: number[] = [];
    ranges.forEach((range, i) => {
      const hit = this.#lookup(key, range);
      if (hit) parts[i] = hit;
      else missing.push(i);
    });
    this.stats.hits += ranges.length - missing.length;
    if (missing.length === 0) return parts;
    this.stats.misses += missing.length;
    const epoch = this.#epoch;
    const wanted = missing.map((i) => ranges[i]);
    const fetched = await getRangesOf(this.inner, key, wanted, options);
    if (fetched === undefined) return undefined;
    missing.forEach((index, j) => {
      parts[index] = fetched[j];
      this.#store(key, wanted[j], fetched[j], epoch);
    });
    return parts;
  }

  /** A copy of the cached bytes for a key and range, from the whole value or the exact range. */
  #lookup(key: string, range: ByteRange | undefined): Uint8Array | undefined {
    const whole = this.#cache.get(key + SEPARATOR + WHOLE);
    if (whole) return sliceRange(whole, range).slice();
    if (range === undefined) return undefined;
    return this.#cache.get(key + SEPARATOR + rangeId(range))?.slice();
  }

  #store(key: string, range: ByteRange | undefined, value: Uint8Array, epoch: number): void {
    if (epoch !== this.#epoch || value.byteLength > this.#maxEntryBytes) return;
    // A whole value answers every range: the ranges cached so far are redundant.
    if (range === undefined) this.#drop(key);
    const id = key + SEPARATOR + rangeId(range);
    if (!this.#cache.set(id, value.slice())) return;
    let ids = this.#idsByKey.get(key);
    if (ids === undefined) this.#idsByKey.set(key, (ids = new Set()));
    ids.add(id);
  }

  #unindex(id: string): void {
    const key = id.slice(0, id.lastIndexOf(SEPARATOR));
    const ids = this.#idsByKey.get(key);
    ids?.delete(id);
    if (ids?.size === 0) this.#idsByKey.delete(key);
  }

  #drop(key: string): void {
    const ids = this.#idsByKey.get(key);
    if (ids === undefined) return;
    for (const id of ids) this.#cache.delete(id);
    this.#idsByKey.delete(key);
  }

  #invalidate(key: string): void {
    this.#epoch++;
    this.#drop(key);
  }

  #invalidatePrefix(prefix: string): void {
    this.#epoch++;
    for (const key of [...this.#idsByKey.keys()]) if (key.startsWith(prefix)) this.#drop(key);
  }

  #forwardWrites(inner: Readable & Writable): void {
    // Invalidated before (reads in flight must not cache) and after (reads that ran during the
    // write may have cached the old value).
    const around = async <T>(drop: () => void, write: () => Promise<T>): Promise<T> => {
      drop();
      try {
        return await write();
      } finally {
        drop();
      }
    };
    this.set = async (key: string, value: Uint8Array, options?: SetOptions) => {
      return around(
        () => this.#invalidate(key),
        () => inner.set(key, value, options),
      );
    };
    const setIfNotExists = inner.setIfNotExists;
    if (setIfNotExists) {
      this.setIfNotExists = async (key: string, value: Uint8Array, options?: SetOptions) => {
        return around(
          () => this.#invalidate(key),
          () => setIfNotExists.call(inner, key, value, options),
        );
      };
    }
    this.delete = async (key: string, options?: SetOptions) => {
      return around(
        () => this.#invalidate(key),
        () => inner.delete(key, options),
      );
    };
    this.deletePrefix = async (prefix: string, options?: SetOptions) => {
      return around(
        () => this.#invalidatePrefix(prefix),
        () => inner.deletePrefix(prefix, options),
      );
    };
  }
}
