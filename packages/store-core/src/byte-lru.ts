/**
 * A least-recently-used cache bounded by the total size of its values rather than their
 * count, so a few large values cannot push memory past the bound. Reading an entry makes it the
 * most recently used; inserting past the bound evicts the least recently used entries.
 *
 * @example
 * ```ts
 * const cache = new ByteLruCache<string, Uint8Array>(1 << 20, (v) => v.byteLength);
 * cache.set("a", bytes); // evicts older entries while the total exceeds 1 MiB
 * ```
 */
export class ByteLruCache<K, V> {
  // A Map iterates in insertion order, so re-inserting on access keeps the oldest entry first.
  readonly #entries = new Map<K, { value: V; size: number }>();
  #bytes = 0;

  /**
   * @param maxBytes the bound on the summed sizes of the values held
   * @param sizeOf the size a value counts for (for bytes, its `byteLength`)
   * @param onEvict called for each entry dropped to make room (not for `delete` or `clear`)
   */
  constructor(
    readonly maxBytes: number,
    private readonly sizeOf: (value: V) => number,
    private readonly onEvict?: (key: K, value: V) => void,
  ) {
    if (!(maxBytes >= 0))
      throw new RangeError(`maxBytes must be a non-negative number, got ${maxBytes}`);
  }

  /** The summed sizes of the values held. */
  get bytes(): number {
    return this.#bytes;
  }

  /** The number of entries held. */
  get size(): number {
    return this.#entries.size;
  }

  /** The value for a key, marking it most recently used; `undefined` when absent. */
  get(key: K): V | undefined {
    const entry = this.#entries.get(key);
    if (entry === undefined) return undefined;
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    return entry.value;
  }

  /** Whether a key is held, without changing its recency. */
  has(key: K): boolean {
    return this.#entries.has(key);
  }

  /**
   * Holds a value, evicting the least recently used entries while the bound is exceeded.
   * A value larger than the whole bound is not held (and evicts nothing).
   * @returns whether the value is held
   */
  set(key: K, value: V): boolean {
    const size = this.sizeOf(value);
    this.delete(key);
    if (size > this.maxBytes) return false;
    this.#entries.set(key, { value, size });
    this.#bytes += size;
    while (this.#bytes > this.maxBytes) {
      const [oldestKey, oldest] = this.#entries.entries().next().value as [
        K,
        { value: V; size: number },
      ];
      this.#entries.delete(oldestKey);
      this.#bytes -= oldest.size;
      this.onEvict?.(oldestKey, oldest.value);
    }
    return true;
  }

  /** Drops a key; returns whether it was held. */
  delete(key: K): boolean {
    const entry = this.#entries.get(key);
    if (entry === undefined) return false;
    this.#entries.delete(key);
    this.#bytes -= entry.size;
    return true;
  }

  /** Drops every entry. */
  clear(): void {
    this.#entries.clear();
    this.#bytes = 0;
  }

  /** The keys held, least recently used first. */
  keys(): IterableIterator<K> {
    return this.#entries.keys();
  }
}
