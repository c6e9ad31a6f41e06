/**
 * A least-recently-used cache bounded by a total cost (bytes, say): adding past the budget
 * evicts the oldest entries.
 */
export class LruCache<K, V> {
  private readonly entries = new Map<K, { value: V; cost: number }>();
  private total = 0;

  constructor(
    /** The largest total cost kept. */
    readonly budget: number,
  ) {}

  /** The value for `key`, marking it most recently used. */
  get(key: K): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  /** Whether `key` is cached (without marking it used). */
  has(key: K): boolean {
    return this.entries.has(key);
  }

  /** Caches a value; values costing more than the whole budget are not kept. */
  set(key: K, value: V, cost: number): void {
    this.delete(key);
    if (cost > this.budget) return;
    this.entries.set(key, { value, cost });
    this.total += cost;
    for (const [oldest, entry] of this.entries) {
      if (this.total <= this.budget) break;
      this.entries.delete(oldest);
      this.total -= entry.cost;
    }
  }

  /** Forgets `key`. */
  delete(key: K): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.total -= entry.cost;
  }

  /** The number of cached entries. */
  get size(): number {
    return this.entries.size;
  }
}
