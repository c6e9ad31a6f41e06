import { clearStore } from "./clear-store.js";
import { asyncDispose } from "./dispose.js";
import { readSize } from "./get-size.js";
import { ReadOnlyStore } from "./read-only-store.js";
import {
  type GetOptions,
  isListable,
  isWritable,
  type KeyRange,
  type PartialReadOptions,
  type Readable,
  type StoreCapabilities,
  type Writable,
} from "./store.js";

/**
 * Base class of the `@z` stores: zarr-python's store API (`getSize`, `getSizePrefix`,
 * `getPartialValues`, `isEmpty`, `clear`, `withReadOnly`, the `supports*` flags and
 * `Symbol.asyncDispose`) built from the store's own `get`, `getRanges`, listing and writes. A
 * store overrides what it can do better: a file store's `getSize` is a `stat`, an object
 * store's `getSizePrefix` adds up the sizes its listing reports. The defaults of the methods that
 * reading an array does not use load on first call, so they cost an app's first load nothing.
 * @example
 * ```ts
 * class TinyStore extends StoreBase {
 *   async get(key: string) { return values.get(key); }
 * }
 * await new TinyStore().getSize("zarr.json"); // reads the value to measure it
 * ```
 * @category Stores
 */
export abstract class StoreBase implements Readable, StoreCapabilities {
  abstract get(key: string, options?: GetOptions): Promise<Uint8Array | undefined>;

  /**
   * A value's size in bytes, `undefined` when the key does not exist (zarr-python's
   * `getsize`, which raises there instead). This default reads the value.
   */
  getSize(key: string, options?: { signal?: AbortSignal }): Promise<number | undefined> {
    return readSize(this, key, options);
  }

  /**
   * The sum of the sizes of the values under `prefix` (`""`, `"a/b"` or `"a/b/"`;
   * zarr-python's `getsize_prefix`): a listing, then `getSize` for each key, `concurrency` at
   * once. Rejects with `UnsupportedOperationError` when the store cannot list.
   */
  async getSizePrefix(prefix = "", options?: PartialReadOptions): Promise<number> {
    const { sumSizes } = await import("./get-size-prefix.js");
    return sumSizes(this, prefix, options);
  }

  /**
   * Reads byte ranges of several keys (zarr-python's `get_partial_values`): one entry per
   * request, in order, `undefined` where the key does not exist; the ranges of one key are read
   * together, `concurrency` keys at once.
   */
  async getPartialValues(
    requests: readonly KeyRange[],
    options?: PartialReadOptions,
  ): Promise<(Uint8Array | undefined)[]> {
    const { readPartialValues } = await import("./partial-values.js");
    return readPartialValues(this, requests, options);
  }

  /**
   * Whether no key lives under `prefix` (`""` for the whole store; `"a/b"` means the folder
   * `"a/b/"`; zarr-python's `is_empty`). Rejects with `UnsupportedOperationError` when the
   * store cannot list.
   */
  async isEmpty(prefix = ""): Promise<boolean> {
    const { hasNoKeys } = await import("./is-empty.js");
    return hasNoKeys(this, prefix);
  }

  /**
   * Removes every key (zarr-python's `clear`). Rejects with `ReadOnlyError` on a read-only
   * store and with `UnsupportedOperationError` on one that cannot be written.
   */
  clear(options?: { signal?: AbortSignal }): Promise<void> {
    return clearStore(this, options);
  }

  /**
   * A read-only view of this store (zarr-python's `with_read_only(True)`): reads and listings
   * pass through, writes reject with `ReadOnlyError`. Disposing the view leaves this store open.
   */
  withReadOnly(): ReadOnlyStore {
    return new ReadOnlyStore(this);
  }

  /** Whether `set` can succeed (zarr-python's `supports_writes`). */
  get supportsWrites(): boolean {
    return isWritable(this);
  }

  /** Whether `delete` and `deletePrefix` can succeed (zarr-python's `supports_deletes`). */
  get supportsDeletes(): boolean {
    return this.supportsWrites;
  }

  /** Whether `setPartialValues` can succeed (zarr-python's `supports_partial_writes`). */
  get supportsPartialWrites(): boolean {
    const write = (this as Partial<Writable>).setPartialValues;
    return this.supportsWrites && typeof write === "function";
  }

  /** Whether the store lists its keys (zarr-python's `supports_listing`). */
  get supportsListing(): boolean {
    return isListable(this);
  }

  /**
   * Releases what the store holds, for `await using store = ...`; stores that hold nothing
   * (this default) do nothing.
   */
  async [asyncDispose](): Promise<void> {}
}
