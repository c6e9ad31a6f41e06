import { throwIfAborted } from "./errors.js";
import { validateKey } from "./keys.js";
import { sliceRange, validateRange } from "./range.js";
import type { GetOptions, Readable } from "./store.js";

/** A byte range as zarrita's stores take it. */
export type ZarritaRangeQuery = { offset: number; length: number } | { suffixLength: number };

/**
 * A store in zarrita's shape (`@zarrita/storage`'s FetchStore, FileSystemStore, ZipFileStore,
 * icechunk-js and other stores written for zarrita): keys are absolute paths with a leading
 * `/`, `get` resolves to the bytes or undefined, `getRange` (optional) reads
 * `{offset, length}` or `{suffixLength}`. Synchronous stores fit too.
 */
export interface ZarritaStyleStore {
  /** Reads a whole value; undefined when the key is missing. */
  get(
    key: `/${string}`,
    options?: { signal?: AbortSignal },
  ): Promise<Uint8Array | undefined> | Uint8Array | undefined;
  /** Reads a range of a value; undefined when the key is missing. */
  getRange?(
    key: `/${string}`,
    range: ZarritaRangeQuery,
    options?: { signal?: AbortSignal },
  ): Promise<Uint8Array | undefined> | Uint8Array | undefined;
}

/**
 * Wraps a zarrita-style store as a read-only `@z` store, so stores written for zarrita open
 * with `openGroup`, `openArray` and the CLI's library functions. Keys gain their leading `/`;
 * ranges go to `getRange` where the store has it (`{offset, length}` and `{suffix}`), and
 * otherwise (and for `{offset}` to the end, which zarrita cannot express) the whole value is read
 * and sliced. An answer longer than the range asked for (a server that ignored `Range`) is cut
 * to the range; a read that starts past the end of the value is whatever the wrapped store makes
 * of it (some zarrita stores throw, some pad with zeros).
 * @example
 * ```ts
 * import { FetchStore } from "zarrita";
 * const store = fromZarritaStore(new FetchStore("https://example.org/data.zarr"));
 * const array = await openArray(store, { path: "temperature" });
 * ```
 * @category Stores
 */
export function fromZarritaStore(store: ZarritaStyleStore): Readable {
  return new ZarritaStoreAdapter(store);
}

/** The `@z` face of a zarrita-style store (see {@link fromZarritaStore}). */
class ZarritaStoreAdapter implements Readable {
  readonly #store: ZarritaStyleStore;

  constructor(store: ZarritaStyleStore) {
    if (typeof store?.get !== "function")
      throw new TypeError("fromZarritaStore needs a store with a get(key) method");
    this.#store = store;
  }

  async get(key: string, options?: GetOptions): Promise<Uint8Array | undefined> {
    validateKey(key);
    const range = options?.range;
    if (range) validateRange(range);
    const signal = options?.signal;
    throwIfAborted(signal);
    const path = `/${key}` as const;
    const store = this.#store;
    const opts = signal ? { signal } : undefined;
    if (range === undefined) return store.get(path, opts);
    if (typeof store.getRange !== "function" || !("length" in range || "suffix" in range)) {
      const whole = await store.get(path, opts);
      return whole === undefined ? undefined : sliceRange(whole, range);
    }
    const wanted = "suffix" in range ? range.suffix : range.length;
    // zarrita has no empty range: ask whether the key exists instead.
    if (wanted === 0) return (await this.has(key, { signal })) ? new Uint8Array(0) : undefined;
    const query: ZarritaRangeQuery =
      "suffix" in range
        ? { suffixLength: range.suffix }
        : { offset: range.offset, length: range.length };
    const bytes = await store.getRange(path, query, opts);
    throwIfAborted(signal);
    if (bytes === undefined || bytes.length <= wanted) return bytes;
    // Longer than asked for: the whole value (the server ignored Range). Cut out the range.
    return sliceRange(bytes, range);
  }

  async has(key: string, options?: { signal?: AbortSignal }): Promise<boolean> {
    validateKey(key);
    throwIfAborted(options?.signal);
    // Not the wrapped store's own `has`: zarrita's FileSystemStore answers true for folders.
    return (
      (await this.#store.get(
        `/${key}`,
        options?.signal ? { signal: options.signal } : undefined,
      )) !== undefined
    );
  }
}
