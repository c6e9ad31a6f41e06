import { MetadataError } from "@z/metadata";
import type { ArrayChunks, GroupReader } from "../io/array-chunks.js";
import type { AccessOptions } from "../io/chunk-access.js";
import { ArrayCache, decodingIdentity, versionStore } from "./array-cache.js";
import { CacheCore, type ChunkCacheStats } from "./cache-core.js";

export type { ChunkCacheStats } from "./cache-core.js";

/** Options of a {@link ChunkCache}. */
export interface ChunkCacheOptions {
  /**
   * The bound on the bytes the entries count for: a decoded chunk's elements plus 64 bytes
   * (a missing chunk, 64 bytes alone). A chunk that alone counts for more is not cached.
   */
  maxBytes: number;
}

/**
 * A cache of decoded chunks, bounded in bytes and shared by the arrays opened with it
 * (`openArray(store, { path, cache })`, or a group's `open`/`openGroup` with `cache`, whose
 * arrays then use it): reading a region again takes its chunks from memory, with no store
 * request and no decoding. The least recently used entries go first.
 *
 * Entries are keyed by the store object (two stores over one location share nothing), the
 * chunk's store key and what decoding depends on in the array's metadata (data type, codecs,
 * chunk grid, fill value: not the shape), so an array re-created at a path with other metadata
 * never reads the old array's chunks. Every write of this library to a chunk (`set`, `resize`,
 * `append`, deleting or replacing nodes, copies), through any array object, makes the chunk's
 * entry stale; a read that ran during the write does not keep what it read. Writes by other
 * processes, or straight to the store, are not seen: `clear()` the cache after them.
 *
 * A sharded array caches its inner chunks (what a viewer reads again), not whole shards. Chunks
 * of elements that are objects (bytes, structured, Arrow) are not cached; nor are the chunks of
 * `getChunk`, which hands out a whole decoded chunk. Entries cannot be changed through what
 * reads return: a read copies from an entry. Two reads that need one chunk at once decode it
 * once.
 *
 * @example
 * ```ts
 * const cache = new ChunkCache({ maxBytes: 256 * 2 ** 20 });
 * const a = await openArray(store, { path: "a", cache });
 * const b = await openArray(store, { path: "b", cache }); // one budget for both
 * await a.get([slice(0, 100), null]);
 * await a.get([slice(0, 100), null]); // from memory
 * console.log(cache.stats()); // { hits, misses, evictions, entries, bytes, maxBytes }
 * ```
 * @category Arrays and groups
 */
export class ChunkCache {
  private readonly core: CacheCore;
  /** Ids of the store objects seen, so entry keys can be strings. */
  private readonly storeIds = new WeakMap<object, number>();
  private nextStoreId = 0;
  /** Ids of the decoding identities seen (see `decodingIdentity`). */
  private readonly identityIds = new Map<string, number>();
  /** The view of each array object that read through the cache. */
  private readonly views = new WeakMap<ArrayChunks, ArrayCache>();

  /**
   * @throws MetadataError when `maxBytes` is not a number >= 0
   */
  constructor(options: ChunkCacheOptions) {
    const maxBytes = (options as Partial<ChunkCacheOptions> | undefined)?.maxBytes;
    if (typeof maxBytes !== "number" || !(maxBytes >= 0)) {
      throw new MetadataError(
        `new ChunkCache: the maxBytes option must be a number >= 0 (the bound in bytes), got ${String(maxBytes)}`,
      );
    }
    this.core = new CacheCore(maxBytes);
  }

  /** The bound on the bytes the entries count for. */
  get maxBytes(): number {
    return this.core.maxBytes;
  }

  /**
   * Hits, misses and evictions since the cache was made, and the entries held now with the
   * bytes they count for.
   */
  stats(): ChunkCacheStats {
    return this.core.stats();
  }

  /** Drops every entry (the counters stay); reads in flight do not keep what they decode. */
  clear(): void {
    this.core.clear();
  }

  /**
   * Reads groups of an array's parts through the cache (see `ArrayChunks.readParts`).
   * @internal
   */
  reader(chunks: ArrayChunks, options: AccessOptions): Promise<GroupReader> {
    return this.viewOf(chunks).reader(chunks, options);
  }

  /** The cache as one array object reads through it (made on its first read). */
  private viewOf(chunks: ArrayChunks): ArrayCache {
    let view = this.views.get(chunks);
    if (view === undefined) {
      const { store, metadata } = chunks;
      const version = versionStore(store, chunks.stored.path, metadata);
      let storeId = this.storeIds.get(version);
      if (storeId === undefined) this.storeIds.set(version, (storeId = this.nextStoreId++));
      const identity = decodingIdentity(metadata);
      let identityId = this.identityIds.get(identity);
      if (identityId === undefined)
        this.identityIds.set(identity, (identityId = this.identityIds.size));
      view = new ArrayCache(this.core, `${storeId}:${identityId}:`, version);
      this.views.set(chunks, view);
    }
    return view;
  }
}
