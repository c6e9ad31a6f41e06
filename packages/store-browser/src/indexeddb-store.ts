import {
  AbortError,
  asyncDispose,
  type ByteRange,
  ConflictError,
  checkRangesRead,
  checkRead,
  type DirListing,
  type FullStore,
  type GetOptions,
  type SetOptions,
  StoreBase,
  sliceRange,
  throwIfAborted,
  type VersionedValue,
  validateKey,
  validatePrefix,
} from "@z/store-core";
import { BrowserStorageError, newVersion } from "./errors.js";

/** The object store holding the entries, keyed by the Zarr key. */
const ENTRIES = "entries";

/** What one Zarr key holds in the object store. */
interface StoredEntry {
  value: Uint8Array;
  version: string;
}

/** Resolves with a request's result, or rejects with its error. */
function settle<T>(request: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

/**
 * The key range of every key under `prefix` (which ends in `/`, or is `""`): keys from the
 * prefix up to, not including, the prefix with its `/` raised to `0`, the next code unit.
 */
function prefixRange(prefix: string): IDBKeyRange | undefined {
  if (prefix === "") return undefined;
  return IDBKeyRange.bound(prefix, `${prefix.slice(0, -1)}0`, false, true);
}

/**
 * A store in an IndexedDB database of the page's origin: one record per key, holding the
 * value and a version. Survives reloads, is shared by every tab and worker of the origin, and
 * works wherever IndexedDB does (every current browser, workers included).
 *
 * - Every operation is one IndexedDB transaction, so writes are atomic and conditional writes
 *   (`ifMatch`, `ifNoneMatch`, `setIfNotExists`) are checked and applied in the same
 *   transaction: IndexedDB runs overlapping read-write transactions one after the other, across
 *   tabs and workers too, so concurrent writers never lose each other's updates
 *   (`conditionalWrites` is true).
 * - Ranged reads read the whole record and return the bytes asked for (IndexedDB has no partial
 *   reads); keep chunks or shards moderate, or use {@link OPFSStore} for large shards.
 * - `deletePrefix` is one transaction over a key range; listing walks the key index in order.
 *
 * @example
 * ```ts
 * const store = await IndexedDBStore.open("my-arrays");
 * const arr = await createArray(store, { shape: [100], chunks: [10], dtype: "float32" });
 * ```
 * @category Stores
 */
export class IndexedDBStore extends StoreBase implements FullStore {
  /** Checked and applied in one IndexedDB transaction: safe across tabs and workers. */
  readonly conditionalWrites = true;
  /** Every read is a structured clone: a buffer nothing else holds. */
  readonly freshReads = true;

  /**
   * Wraps an open database that has the `entries` object store; most callers use
   * {@link IndexedDBStore.open}.
   */
  constructor(
    /** The open database. */
    readonly db: IDBDatabase,
  ) {
    super();
  }

  /**
   * Opens (creating it when needed) the database `name` of this origin as a store.
   * @throws BrowserStorageError when IndexedDB is missing or refuses to open the database
   */
  static async open(name: string, options: { signal?: AbortSignal } = {}): Promise<IndexedDBStore> {
    throwIfAborted(options.signal);
    if (typeof indexedDB === "undefined")
      throw new BrowserStorageError(name, "open", new Error("IndexedDB is not available here"));
    const request = indexedDB.open(name, 1);
    request.onupgradeneeded = () => {
      if (!request.result.objectStoreNames.contains(ENTRIES))
        request.result.createObjectStore(ENTRIES);
    };
    try {
      const db = await settle(request);
      // Another tab upgrading the database must not wait for this one forever.
      db.onversionchange = () => db.close();
      return new IndexedDBStore(db);
    } catch (error) {
      throw new BrowserStorageError(name, "open", error);
    }
  }

  /**
   * Deletes the database `name` with everything in it; waits until open connections of this
   * page are closed (close stores with {@link IndexedDBStore.close} first).
   */
  static async deleteDatabase(name: string): Promise<void> {
    try {
      await settle(indexedDB.deleteDatabase(name));
    } catch (error) {
      throw new BrowserStorageError(name, "delete", error);
    }
  }

  /** Closes the database connection; later calls fail. Closing twice does no harm. */
  close(): void {
    this.db.close();
  }

  /** Closes the database connection, for `await using store = await IndexedDBStore.open(...)`. */
  override async [asyncDispose](): Promise<void> {
    this.close();
  }

  /**
   * Runs `body` in one transaction and resolves once the transaction has committed. An abort
   * of `signal` before the commit aborts the transaction, so nothing of it is written.
   */
  private async transact<T>(
    key: string,
    operation: string,
    mode: IDBTransactionMode,
    signal: AbortSignal | undefined,
    body: (entries: IDBObjectStore) => Promise<T>,
  ): Promise<T> {
    throwIfAborted(signal);
    let tx: IDBTransaction;
    try {
      tx = this.db.transaction(ENTRIES, mode);
    } catch (error) {
      throw new BrowserStorageError(key, operation, error);
    }
    const committed = new Promise<void>((resolve, reject) => {
      tx.oncomplete = () => resolve();
      tx.onabort = () => reject(tx.error ?? new Error("transaction aborted"));
    });
    committed.catch(() => {}); // observed below; avoid an unhandled rejection meanwhile
    const abortTx = () => {
      try {
        tx.abort();
      } catch {
        // Already committed or aborted.
      }
    };
    signal?.addEventListener("abort", abortTx, { once: true });
    try {
      let result: T;
      try {
        result = await body(tx.objectStore(ENTRIES));
      } catch (error) {
        abortTx();
        throw error;
      }
      await committed;
      return result;
    } catch (error) {
      if (signal?.aborted) throw new AbortError(signal.reason);
      if (error instanceof ConflictError) throw error;
      throw new BrowserStorageError(key, operation, error);
    } finally {
      signal?.removeEventListener("abort", abortTx);
    }
  }

  private read(key: string, signal: AbortSignal | undefined): Promise<StoredEntry | undefined> {
    return this.transact(key, "read", "readonly", signal, (entries) =>
      settle(entries.get(key) as IDBRequest<StoredEntry | undefined>),
    );
  }

  async get(key: string, options?: GetOptions): Promise<Uint8Array | undefined> {
    checkRead(key, options?.range, options?.signal);
    const entry = await this.read(key, options?.signal);
    if (entry === undefined) return undefined;
    // A copy of just the range, so a small read does not keep a large value alive.
    return options?.range ? sliceRange(entry.value, options.range).slice() : entry.value;
  }

  async getRanges(
    key: string,
    ranges: readonly ByteRange[],
    options?: { signal?: AbortSignal },
  ): Promise<Uint8Array[] | undefined> {
    checkRangesRead(key, ranges, options?.signal);
    const entry = await this.read(key, options?.signal);
    if (entry === undefined) return undefined;
    return ranges.map((range) => sliceRange(entry.value, range).slice());
  }

  async has(key: string, options?: { signal?: AbortSignal }): Promise<boolean> {
    validateKey(key);
    const count = await this.transact(key, "read", "readonly", options?.signal, (entries) =>
      settle(entries.count(key)),
    );
    return count > 0;
  }

  async getVersioned(
    key: string,
    options?: { signal?: AbortSignal },
  ): Promise<VersionedValue | undefined> {
    validateKey(key);
    const entry = await this.read(key, options?.signal);
    return entry && { value: entry.value, version: entry.version };
  }

  async set(key: string, value: Uint8Array, options?: SetOptions): Promise<void> {
    validateKey(key);
    // A copy of only the viewed bytes (structured clone would keep the whole buffer).
    const stored: StoredEntry = { value: value.slice(), version: newVersion() };
    await this.transact(key, "write", "readwrite", options?.signal, async (entries) => {
      if (options?.ifMatch !== undefined || options?.ifNoneMatch !== undefined) {
        const current = await settle(entries.get(key) as IDBRequest<StoredEntry | undefined>);
        checkCondition(key, current, options);
      }
      await settle(entries.put(stored, key));
    });
  }

  async setIfNotExists(key: string, value: Uint8Array, options?: SetOptions): Promise<boolean> {
    validateKey(key);
    const stored: StoredEntry = { value: value.slice(), version: newVersion() };
    return this.transact(key, "write", "readwrite", options?.signal, async (entries) => {
      if ((await settle(entries.count(key))) > 0) return false;
      await settle(entries.add(stored, key));
      return true;
    });
  }

  async delete(key: string, options?: SetOptions): Promise<void> {
    validateKey(key);
    await this.transact(key, "delete", "readwrite", options?.signal, async (entries) => {
      if (options?.ifMatch !== undefined) {
        const current = await settle(entries.get(key) as IDBRequest<StoredEntry | undefined>);
        checkCondition(key, current, options);
      }
      await settle(entries.delete(key));
    });
  }

  async deletePrefix(prefix: string, options?: SetOptions): Promise<void> {
    validatePrefix(prefix);
    await this.transact(prefix, "delete", "readwrite", options?.signal, async (entries) => {
      const range = prefixRange(prefix);
      await settle(range === undefined ? entries.clear() : entries.delete(range));
    });
  }

  async *list(): AsyncIterable<string> {
    yield* await this.keysUnder("");
  }

  async *listPrefix(prefix: string): AsyncIterable<string> {
    validatePrefix(prefix);
    yield* await this.keysUnder(prefix);
  }

  /** Every key under `prefix`, in code unit order (IndexedDB's order for string keys). */
  private keysUnder(prefix: string): Promise<string[]> {
    return this.transact(prefix, "list", "readonly", undefined, async (entries) => {
      const keys = await settle(entries.getAllKeys(prefixRange(prefix)));
      return keys as string[];
    });
  }

  async listDir(prefix: string): Promise<DirListing> {
    validatePrefix(prefix);
    return this.transact(prefix, "list", "readonly", undefined, (entries) => {
      const listing: DirListing = { keys: [], prefixes: [] };
      const cursor = entries.openKeyCursor(prefixRange(prefix));
      return new Promise<DirListing>((resolve, reject) => {
        cursor.onerror = () => reject(cursor.error);
        cursor.onsuccess = () => {
          const at = cursor.result;
          if (at === null) return resolve(listing);
          const key = at.key as string;
          const slash = key.indexOf("/", prefix.length);
          if (slash < 0) {
            listing.keys.push(key);
            return at.continue();
          }
          // One entry per sub-prefix: jump past every key below it.
          const sub = key.slice(0, slash + 1);
          listing.prefixes.push(sub);
          at.continue(`${key.slice(0, slash)}0`);
        };
      });
    });
  }
}

/** Throws a ConflictError when `current` does not meet the write's `ifMatch` / `ifNoneMatch`. */
function checkCondition(key: string, current: StoredEntry | undefined, options: SetOptions): void {
  if (options.ifNoneMatch === "*" && current !== undefined)
    throw new ConflictError(key, "the key exists (ifNoneMatch)");
  if (options.ifMatch !== undefined) {
    if (current === undefined) throw new ConflictError(key, "the key no longer exists");
    if (current.version !== options.ifMatch)
      throw new ConflictError(key, `its version is no longer ${options.ifMatch}`);
  }
}
