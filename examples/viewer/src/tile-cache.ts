/** What a {@link TileCache} has done: the same fields as the arrays' chunk cache reports. */
export interface TileCacheStats {
  hits: number;
  misses: number;
  evictions: number;
  entries: number;
  bytes: number;
  maxBytes: number;
}

/**
 * The viewer's own cache of decoded tiles, least recently used first out once `maxBytes` is
 * exceeded: a tile that leaves the view and comes back is drawn again without a request.
 */
export class TileCache<T> {
  readonly #entries = new Map<string, { value: T; bytes: number }>();
  #stats: TileCacheStats;

  constructor(options: { maxBytes: number }) {
    this.#stats = {
      hits: 0,
      misses: 0,
      evictions: 0,
      entries: 0,
      bytes: 0,
      maxBytes: options.maxBytes,
    };
  }

  /** The cached value of `key`, or what `load` gives (then cached as `bytes(value)` bytes). */
  async get(key: string, load: () => Promise<T>, bytes: (value: T) => number): Promise<T> {
    const hit = this.#entries.get(key);
    if (hit) {
      this.#stats.hits++;
      // Re-insert: a Map iterates in insertion order, so the first entry is the least recent.
      this.#entries.delete(key);
      this.#entries.set(key, hit);
      return hit.value;
    }
    this.#stats.misses++;
    const value = await load();
    const size = bytes(value);
    if (size > this.#stats.maxBytes) return value;
    const previous = this.#entries.get(key);
    if (previous) this.#stats.bytes -= previous.bytes;
    this.#entries.delete(key);
    this.#entries.set(key, { value, bytes: size });
    this.#stats.bytes += size;
    for (const [oldest, entry] of this.#entries) {
      if (this.#stats.bytes <= this.#stats.maxBytes) break;
      this.#entries.delete(oldest);
      this.#stats.bytes -= entry.bytes;
      this.#stats.evictions++;
    }
    return value;
  }

  /** Counts and sizes so far. */
  stats(): TileCacheStats {
    return { ...this.#stats, entries: this.#entries.size };
  }
}
