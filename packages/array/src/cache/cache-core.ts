import type { Chunk } from "@z/ndarray";
import { ByteLruCache } from "@z/store-core";
import { entryBytes, entryOf } from "./cached-chunk.js";

/** The counters of a {@link ChunkCache} (see `ChunkCache.stats`). */
export interface ChunkCacheStats {
  /** Chunks served without decoding: from an entry, or from a decode of the chunk in flight. */
  hits: number;
  /** Chunks decoded because no current entry held them. */
  misses: number;
  /** Entries dropped to stay within `maxBytes` (not those dropped by writes or `clear`). */
  evictions: number;
  /** Entries held. */
  entries: number;
  /** The bytes the entries count for (elements plus a small overhead each). */
  bytes: number;
  /** The bound on `bytes`. */
  maxBytes: number;
}

/** A decoded chunk as held: undefined for a chunk never written. */
interface Entry {
  chunk: Chunk | undefined;
  /** The write count of the chunk's key the entry is current for (see `writeEpoch`). */
  version: number;
}

/** A decoded chunk the caller may read (never change), with whether the cache holds it. */
export type Decoded = { chunk: Chunk; owned: boolean } | undefined;

/**
 * The entries of a chunk cache and the decodes in flight, by entry key (store, metadata and
 * chunk): least recently used entries go first when their bytes exceed the bound. Each entry
 * carries the version of its key it was decoded at; a lookup at another version misses, and a
 * decode finished after the version changed is not kept.
 */
export class CacheCore {
  private readonly entries: ByteLruCache<string, Entry>;
  private readonly loading = new Map<
    string,
    { version: number; done: Promise<Chunk | undefined> }
  >();
  private hits = 0;
  private misses = 0;
  private evictions = 0;
  /** Counts `clear` calls: decodes started before one are not kept. */
  private clears = 0;

  constructor(readonly maxBytes: number) {
    this.entries = new ByteLruCache<string, Entry>(
      maxBytes,
      (entry) => entryBytes(entry.chunk),
      () => this.evictions++,
    );
  }

  /** The counters and the current size. */
  stats(): ChunkCacheStats {
    const { hits, misses, evictions, maxBytes } = this;
    const { size: entries, bytes } = this.entries;
    return { hits, misses, evictions, entries, bytes, maxBytes };
  }

  /** Drops every entry; decodes in flight finish for their callers but are not kept. */
  clear(): void {
    this.entries.clear();
    this.clears++;
  }

  /**
   * The decoded chunk of entry `key` at `version`: the entry's, the result of a decode of it
   * already in flight, or what `decode` gives (called at once, before this returns), kept when
   * `current()` still gives `version` once it is done. The chunk is the caller's to read only.
   * A failed decode the caller joined is done again for the caller: the other caller may have
   * been aborted.
   */
  load(
    key: string,
    version: number,
    current: () => number,
    decode: () => Promise<Decoded>,
  ): Promise<Chunk | undefined> {
    const entry = this.entries.get(key);
    if (entry !== undefined) {
      if (entry.version === version) {
        this.hits++;
        return Promise.resolve(entry.chunk);
      }
      this.entries.delete(key);
    }
    const pending = this.loading.get(key);
    if (pending !== undefined && pending.version === version) {
      this.hits++;
      return pending.done.catch(() => this.load(key, version, current, decode));
    }
    this.misses++;
    const clears = this.clears;
    let started: Promise<Decoded>;
    try {
      started = decode();
    } catch (error) {
      started = Promise.reject(error);
    }
    const done = started.then((decoded) => {
      const kept = decoded === undefined ? undefined : entryOf(decoded.chunk, decoded.owned);
      if (kept !== false && current() === version && clears === this.clears)
        this.entries.set(key, { chunk: kept, version });
      return kept === false || kept === undefined ? decoded?.chunk : kept;
    });
    const settled = () => {
      if (this.loading.get(key)?.done === done) this.loading.delete(key);
    };
    done.then(settled, settled);
    this.loading.set(key, { version, done });
    return done;
  }
}
