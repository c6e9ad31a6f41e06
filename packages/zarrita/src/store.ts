import {
  fromZarritaStore,
  type GetOptions,
  type Readable,
  type SetOptions,
  UnsupportedOperationError,
  type ZarritaRangeQuery,
} from "@z/store-core";
import { relaxZarritaMetadata } from "./lenient-metadata.js";

/** A store path as zarrita spells it: absolute, with a leading `/`. */
export type AbsolutePath = `/${string}`;

/** A byte range as zarrita's stores take it. */
export type RangeQuery = ZarritaRangeQuery;

/**
 * A store zarrita can read (`@zarrita/storage`'s stores, a `Map` with `/`-prefixed keys, or any
 * object with such a `get`): `get` resolves to the bytes or undefined, `getRange` (optional)
 * reads `{offset, length}` or `{suffixLength}`.
 */
export interface Readable_ {
  /** Reads a whole value; undefined when the key is missing. */
  get(
    key: AbsolutePath,
    options?: { signal?: AbortSignal },
  ): Promise<Uint8Array | undefined> | Uint8Array | undefined;
  /** Reads a range of a value; undefined when the key is missing. */
  getRange?(
    key: AbsolutePath,
    range: RangeQuery,
    options?: { signal?: AbortSignal },
  ): Promise<Uint8Array | undefined> | Uint8Array | undefined;
}

/** A store zarrita can write: a readable store with `set` (a `Map` is one). */
export interface Mutable extends Readable_ {
  /** Writes a whole value. */
  set(key: AbsolutePath, value: Uint8Array): unknown;
  /** Deletes a value, where the store can. */
  delete?(key: AbsolutePath): unknown;
}

export type { Readable_ as Readable };

/**
 * Bytes as a plain Uint8Array. zarrita's FileSystemStore answers with Node Buffers, whose
 * `slice` is a view rather than a copy: decoders that copy a misaligned chunk with `slice`
 * before viewing it as wider elements would get the same misaligned bytes back.
 */
function plain(bytes: Uint8Array | undefined): Uint8Array | undefined {
  if (bytes === undefined || Object.getPrototypeOf(bytes) === Uint8Array.prototype) return bytes;
  return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/**
 * The `@z` face of a zarrita store: reads go through store-core's adapter (ranges included),
 * zarrita's metadata leniencies are applied to the documents read (see lenient-metadata.ts),
 * and writes go to the store's `set` with the leading `/` restored.
 */
class ZarritaBridge implements Readable {
  readonly #reader: Readable;
  /** Reads in flight, by key and range: identical concurrent reads (the index of a shard that
   * several chunk reads need) make one request. */
  readonly #inFlight = new Map<string, Promise<Uint8Array | undefined>>();

  constructor(store: Readable_) {
    this.#reader = fromZarritaStore(store);
  }

  async get(key: string, options?: GetOptions): Promise<Uint8Array | undefined> {
    const id = `${key}\0${JSON.stringify(options?.range ?? null)}`;
    const pending = this.#inFlight.get(id);
    // A caller of a shared read gets its own copy, so no decoder sees another's changes.
    if (pending !== undefined && options?.signal === undefined) return (await pending)?.slice();
    const read = this.#read(key, options);
    if (options?.signal === undefined) {
      this.#inFlight.set(id, read);
      const done = () => this.#inFlight.delete(id);
      read.then(done, done);
    }
    return read;
  }

  async #read(key: string, options?: GetOptions): Promise<Uint8Array | undefined> {
    const bytes = plain(await this.#reader.get(key, options));
    if (bytes === undefined || options?.range !== undefined) return bytes;
    return key === "zarr.json" || key.endsWith("/zarr.json") ? relaxZarritaMetadata(bytes) : bytes;
  }

  async has(key: string, options?: { signal?: AbortSignal }): Promise<boolean> {
    return (await this.#reader.has?.(key, options)) ?? (await this.get(key, options)) !== undefined;
  }
}

/** A bridge over a zarrita store that has `set`: the `@z` stack may write through it. */
class WritableZarritaBridge extends ZarritaBridge {
  readonly #store: Mutable;

  constructor(store: Mutable) {
    super(store);
    this.#store = store;
  }

  async set(key: string, value: Uint8Array, _options?: SetOptions): Promise<void> {
    await this.#store.set(`/${key}`, value);
  }

  async delete(key: string, _options?: SetOptions): Promise<void> {
    if (typeof this.#store.delete !== "function") {
      throw new UnsupportedOperationError(`The store has no delete(): /${key} cannot be deleted`, {
        key,
      });
    }
    await this.#store.delete(`/${key}`);
  }

  async deletePrefix(prefix: string, _options?: SetOptions): Promise<void> {
    const store = this.#store as Partial<Map<string, Uint8Array>>;
    if (typeof store.keys !== "function" || typeof store.delete !== "function") {
      throw new UnsupportedOperationError(`The store cannot list the keys under /${prefix}`, {
        key: prefix,
      });
    }
    for (const key of [...store.keys()]) {
      if (key.startsWith(`/${prefix}`)) store.delete(key);
    }
  }
}

const bridges = new WeakMap<object, Readable>();

/**
 * The `@z` store for a zarrita store, one per store object, so the stack's per-store state
 * (caches, the metadata it read) is shared by every node opened from it.
 */
export function bridgeStore(store: Readable_): Readable {
  let bridge = bridges.get(store);
  if (bridge === undefined) {
    const mutable = typeof (store as Partial<Mutable>).set === "function";
    bridge = mutable ? new WritableZarritaBridge(store as Mutable) : new ZarritaBridge(store);
    bridges.set(store, bridge);
  }
  return bridge;
}
