import { asyncDispose } from "./dispose.js";
import { ReadOnlyError } from "./errors.js";
import { forwardListing } from "./forward.js";
import { getSizeOf } from "./get-size.js";
import {
  type GetOptions,
  isListable,
  type KeyRange,
  type Listable,
  type PartialReadOptions,
  type Readable,
  type SetOptions,
  type StoreCapabilities,
  type Writable,
} from "./store.js";

/**
 * A read-only view of a store: reads and listings pass through, writes reject with
 * {@link ReadOnlyError} before anything reaches the wrapped store. Every store's
 * `withReadOnly()` returns one; disposing it leaves the wrapped store open.
 * @example
 * ```ts
 * const readOnly = new ReadOnlyStore(new FsStore("data.zarr"));
 * const arr = await openArray(readOnly); // arr.set(...) throws ReadOnlyError
 * ```
 * @category Stores
 */
export class ReadOnlyStore implements Readable, Writable, Partial<Listable>, StoreCapabilities {
  /** Writes reject. */
  readonly supportsWrites = false;
  /** Deletes reject. */
  readonly supportsDeletes = false;
  /** Partial writes reject. */
  readonly supportsPartialWrites = false;
  /** Whether the wrapped store lists its keys. */
  readonly supportsListing: boolean;

  constructor(readonly inner: Readable) {
    forwardListing(this, inner);
    this.supportsListing = isListable(inner);
    if (inner.getRanges) this.getRanges = inner.getRanges.bind(inner);
    if (inner.has) this.has = inner.has.bind(inner);
    // Versioned reads are reads; conditional writes stay off, like every write.
    if (inner.getVersioned) this.getVersioned = inner.getVersioned.bind(inner);
  }
  getRanges?: Readable["getRanges"];
  has?: Readable["has"];
  getVersioned?: Readable["getVersioned"];
  list?: Listable["list"];
  listPrefix?: Listable["listPrefix"];
  listDir?: Listable["listDir"];

  get(key: string, options?: GetOptions): Promise<Uint8Array | undefined> {
    return this.inner.get(key, options);
  }
  /** The wrapped store's value size (see `getSizeOf`). */
  getSize(key: string, options?: { signal?: AbortSignal }): Promise<number | undefined> {
    return getSizeOf(this.inner, key, options);
  }
  // The three below load their code on first call, as StoreBase's do: reading an array
  // through a read-only view does not use them.
  /** The wrapped store's sizes under a prefix (see `getSizePrefixOf`). */
  async getSizePrefix(prefix = "", options?: PartialReadOptions): Promise<number> {
    const { getSizePrefixOf } = await import("./get-size-prefix.js");
    return getSizePrefixOf(this.inner, prefix, options);
  }
  /** Ranges of several keys of the wrapped store (see `getPartialValuesOf`). */
  async getPartialValues(
    requests: readonly KeyRange[],
    options?: PartialReadOptions,
  ): Promise<(Uint8Array | undefined)[]> {
    const { getPartialValuesOf } = await import("./partial-values.js");
    return getPartialValuesOf(this.inner, requests, options);
  }
  /** Whether the wrapped store has no key under `prefix` (see `isEmptyOf`). */
  async isEmpty(prefix = ""): Promise<boolean> {
    const { isEmptyOf } = await import("./is-empty.js");
    return isEmptyOf(this.inner, prefix);
  }
  /** This view: it is read-only already. */
  withReadOnly(): ReadOnlyStore {
    return this;
  }
  /** Rejects with `ReadOnlyError`. */
  async set(key: string, _value?: Uint8Array, _options?: SetOptions): Promise<void> {
    throw new ReadOnlyError(key, "write");
  }
  /** Rejects with `ReadOnlyError`. */
  async setIfNotExists(key: string, _value?: Uint8Array, _options?: SetOptions): Promise<boolean> {
    throw new ReadOnlyError(key, "write");
  }
  /** Rejects with `ReadOnlyError`. */
  async delete(key: string, _options?: SetOptions): Promise<void> {
    throw new ReadOnlyError(key, "delete");
  }
  /** Rejects with `ReadOnlyError`. */
  async deletePrefix(prefix: string, _options?: SetOptions): Promise<void> {
    throw new ReadOnlyError(prefix, "delete");
  }
  /** Rejects with `ReadOnlyError`: a read-only view clears nothing. */
  async clear(): Promise<void> {
    throw new ReadOnlyError("", "clear");
  }
  /** Does nothing: the view holds nothing, and the wrapped store stays open. */
  async [asyncDispose](): Promise<void> {}
}
