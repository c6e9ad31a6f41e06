import {
  collectKeys,
  type Listable,
  MapStore,
  type Readable,
  throwIfAborted,
  validateKey,
} from "@z/store-core";

/** What a {@link MemoryStore} can start from: a `Map`, entries, or a plain object of values. */
export type MemoryStoreInit =
  | ReadonlyMap<string, Uint8Array>
  | Iterable<readonly [string, Uint8Array]>
  | Readonly<Record<string, Uint8Array>>;

/**
 * A store that keeps every value in memory, in a `Map` it owns: for tests, scratch arrays and
 * caching a small remote store. Values are copied on the way in (constructor and `set`), so
 * changing a buffer after handing it over does not change the store. `get` returns a view of
 * the stored bytes without copying: treat it as read-only.
 *
 * To use a `Map` you already have without copying it, use `MapStore` from `@z/store-core`.
 * @example
 * ```ts
 * const store = new MemoryStore();
 * const arr = await createArray(store, { shape: [100], chunks: [10], dtype: "float32" });
 * console.log(await collectKeys(store.list())); // ["zarr.json"]
 * ```
 * @category Stores
 */
export class MemoryStore extends MapStore {
  /**
   * @param init initial contents; the keys are validated and the bytes copied
   * @throws InvalidKeyError when an initial key breaks the key rules
   */
  constructor(init: MemoryStoreInit = []) {
    super(new Map());
    const entries =
      Symbol.iterator in init
        ? (init as Iterable<readonly [string, Uint8Array]>)
        : Object.entries(init as Record<string, Uint8Array>);
    for (const [key, value] of entries) this.map.set(validateKey(key), value.slice());
  }

  /**
   * Copies every key of a listable store (an `FsStore`, a zip file...) into a new MemoryStore.
   * @param options.prefix copy only the keys under this prefix (`""`, the default: everything)
   * @param options.signal stop copying when aborted
   */
  static async fromStore(
    source: Readable & Pick<Listable, "listPrefix">,
    options: { prefix?: string; signal?: AbortSignal } = {},
  ): Promise<MemoryStore> {
    const store = new MemoryStore();
    for (const key of await collectKeys(source.listPrefix(options.prefix ?? ""))) {
      throwIfAborted(options.signal);
      const value = await source.get(key, { signal: options.signal });
      // A key deleted between the listing and the read is simply not copied.
      if (value !== undefined) store.map.set(key, value.slice());
    }
    return store;
  }

  /** The number of keys. */
  get size(): number {
    return this.map.size;
  }

  /** The total size of the stored values in bytes (keys not counted). */
  get nbytes(): number {
    let total = 0;
    for (const value of this.map.values()) total += value.byteLength;
    return total;
  }

  /**
   * A copy of the contents, keys in sorted order, sharing no memory with the store: later
   * writes to either side do not show in the other. `new MemoryStore(snapshot)` restores it.
   */
  snapshot(): Map<string, Uint8Array> {
    const copy = new Map<string, Uint8Array>();
    for (const key of [...this.map.keys()].sort()) copy.set(key, this.map.get(key)!.slice());
    return copy;
  }

  /** An independent copy of this store (a {@link snapshot} in a new MemoryStore). */
  clone(): MemoryStore {
    return new MemoryStore(this.snapshot());
  }

  /**
   * Removes every key. The keys are gone when the call returns, so callers that do not wait
   * for the promise (it was synchronous once) still see an empty store.
   */
  override async clear(): Promise<void> {
    this.map.clear();
  }
}
