import type { ByteRange } from "./range.js";

/** Options of a read. */
export interface GetOptions {
  /** Read only part of the value. */
  range?: ByteRange;
  /** Abort the read. */
  signal?: AbortSignal;
}

/** Options of a write or delete. */
export interface SetOptions {
  /** Abort the write. */
  signal?: AbortSignal;
  /**
   * Write (or delete) only if the stored value still has this version (as reported by
   * `getVersioned`); otherwise reject with a `ConflictError` and change nothing. A missing key
   * matches no version. Only stores with `conditionalWrites: true` honour it.
   */
  ifMatch?: string;
  /**
   * `"*"`: write only if the key does not exist; otherwise reject with a `ConflictError`.
   * Only stores with `conditionalWrites: true` honour it.
   */
  ifNoneMatch?: "*";
}

/** A value together with the version a conditional write can compare against. */
export interface VersionedValue {
  /** The whole value. */
  value: Uint8Array;
  /** An opaque version (an ETag, a generation, a content hash) that changes with every write. */
  version: string;
}

/**
 * A store that can be read. `get` resolves to `undefined` for a missing key, never rejects
 * because a key is missing.
 */
export interface Readable {
  /** Reads a value, or a byte range of it; `undefined` when the key does not exist. */
  get(key: string, options?: GetOptions): Promise<Uint8Array | undefined>;
  /**
   * Reads several ranges of one value in one call (stores that can batch requests implement
   * it); `undefined` when the key does not exist.
   */
  getRanges?(
    key: string,
    ranges: readonly ByteRange[],
    options?: { signal?: AbortSignal },
  ): Promise<Uint8Array[] | undefined>;
  /** Whether a key exists, when the store can tell without reading the value. */
  has?(key: string, options?: { signal?: AbortSignal }): Promise<boolean>;
  /**
   * True when every `get` resolves to a new buffer that nothing else holds (a file read, a
   * network response), so readers may hand it to their callers without copying. Stores that
   * return views of what they keep (a Map) leave it unset.
   */
  readonly freshReads?: boolean;
  /**
   * Reads a whole value into the caller's buffer when it fits, so a reader can reuse one
   * buffer for many values (stores that read from files implement it): resolves to the value's
   * size, its bytes in `target[0, size)`; when the value is larger than `target`, the size
   * tells how large it is and `target` holds nothing useful (a store may have read the value's
   * first bytes into it). `undefined` when the key does not exist.
   */
  getInto?(
    key: string,
    target: Uint8Array,
    options?: { signal?: AbortSignal },
  ): Promise<number | undefined>;
  /**
   * Reads a whole value with its version, for optimistic read-modify-write with
   * `set(key, value, {ifMatch: version})`; `undefined` when the key does not exist. Stores
   * that offer it also set `conditionalWrites`.
   */
  getVersioned?(
    key: string,
    options?: { signal?: AbortSignal },
  ): Promise<VersionedValue | undefined>;
  /**
   * A value's size in bytes, without reading it where the store can (a file's `stat`, an HTTP
   * `HEAD`); `undefined` when the key does not exist, as `get` resolves. Callers that take any
   * store use `getSizeOf`, which reads the value when a store has no `getSize`.
   */
  getSize?(key: string, options?: { signal?: AbortSignal }): Promise<number | undefined>;
  /**
   * Reads byte ranges of several keys in one call: resolves to one entry per request, in
   * order, `undefined` where the key does not exist. Callers that take any store use
   * `getPartialValuesOf`, which builds it from `get` / `getRanges` when a store has none.
   */
  getPartialValues?(
    requests: readonly KeyRange[],
    options?: PartialReadOptions,
  ): Promise<(Uint8Array | undefined)[]>;
}

/** One read of {@link Readable.getPartialValues}: a key, and the part of its value to read. */
export interface KeyRange {
  /** The key to read. */
  key: string;
  /** The part of the value to read; the whole value when absent. */
  range?: ByteRange;
}

/** Options of a read of several keys or of a sum over many keys. */
export interface PartialReadOptions {
  /** Abort the reads. */
  signal?: AbortSignal;
  /** How many requests may be in flight at once (default 10, as zarr-python). */
  concurrency?: number;
}

/** One write of {@link Writable.setPartialValues}: bytes to put at an offset of a value. */
export interface PartialWrite {
  /** The key whose value is changed; it must exist. */
  key: string;
  /** Where in the value the bytes go; past the end, the gap reads as zeros. */
  offset: number;
  /** The bytes to write. */
  value: Uint8Array;
}

/** A store that can be written. */
export interface Writable {
  /** Writes a whole value, replacing what was there. */
  set(key: string, value: Uint8Array, options?: SetOptions): Promise<void>;
  /**
   * Deletes a value; deleting a missing key is not an error. With `ifMatch` (stores with
   * `conditionalWrites`), deletes only if the value still has that version, else rejects with
   * a `ConflictError`.
   */
  delete(key: string, options?: SetOptions): Promise<void>;
  /** Deletes every key that starts with `prefix` (`""` deletes everything). */
  deletePrefix(prefix: string, options?: SetOptions): Promise<void>;
  /** Writes a value only if the key does not exist yet; resolves to whether it wrote. */
  setIfNotExists?(key: string, value: Uint8Array, options?: SetOptions): Promise<boolean>;
  /**
   * True when `set` honours `ifMatch` and `ifNoneMatch`, and `delete` honours `ifMatch`,
   * atomically against every other conditional write of the key, so writers in other
   * processes or machines cannot lose each other's updates to one key. Such stores also offer
   * `getVersioned`. A write without a condition is a blind replacement: a store may let it land
   * while a conditional write of another writer is between its check and its write (FsStore
   * does, so that whole-value writes take no lock), and that write then replaces it. The
   * conditional write's update is never the one lost.
   */
  readonly conditionalWrites?: boolean;
  /**
   * Overwrites byte ranges of existing values in place, extending a value written past its end
   * (the gap reads as zeros), as zarr-python's `LocalStore.set_partial_values` did. A missing key
   * rejects with `NotFoundError`. Only stores that can write part of a value offer it
   * (`supportsPartialWrites`); the bytes outside the written ranges never change.
   */
  setPartialValues?(
    writes: readonly PartialWrite[],
    options?: { signal?: AbortSignal },
  ): Promise<void>;
}

/** What `listDir` returns: the keys directly under a prefix and the sub-prefixes below it. */
export interface DirListing {
  /** Full keys directly under the prefix. */
  keys: string[];
  /** Full prefixes (ending in `/`) of the "directories" directly under the prefix. */
  prefixes: string[];
}

/** A store whose keys can be listed. */
export interface Listable {
  /** Every key in the store. */
  list(): AsyncIterable<string>;
  /** Every key that starts with `prefix` (`""` or a prefix ending in `/`). */
  listPrefix(prefix: string): AsyncIterable<string>;
  /** The keys and sub-prefixes directly under `prefix`, like one directory's listing. */
  listDir(prefix: string): Promise<DirListing>;
  /**
   * Whether no key lives under `prefix` (`""`, `"a/b"` or `"a/b/"`: a node path is read as
   * the folder of its keys, as zarr-python's `is_empty`).
   */
  isEmpty?(prefix?: string): Promise<boolean>;
  /** The sum of the sizes of the values under `prefix` (zarr-python's `getsize_prefix`). */
  getSizePrefix?(prefix?: string, options?: PartialReadOptions): Promise<number>;
}

/** A store with every capability. */
export type Store = Readable & Partial<Writable> & Partial<Listable>;

/** A readable and writable store. */
export type WritableStore = Readable & Writable & Partial<Listable>;

/** A readable, writable and listable store. */
export type FullStore = Readable & Writable & Listable;

/** What user-facing functions accept as a store: a store object or a plain `Map`. */
export type StoreLike = Readable | Map<string, Uint8Array>;

/** Whether a store can be written. */
export function isWritable(store: Readable): store is Readable & Writable {
  const s = store as Partial<Writable>;
  return typeof s.set === "function" && typeof s.delete === "function";
}

/** Whether a store can list its keys. */
export function isListable(store: Readable): store is Readable & Listable {
  const s = store as Partial<Listable>;
  return typeof s.listPrefix === "function" && typeof s.listDir === "function";
}

/** What a store can do, under zarr-python's names (`supports_writes`, ...). */
export interface StoreCapabilities {
  /** `set` can succeed (the store has it and is not read-only). */
  readonly supportsWrites: boolean;
  /** `delete` and `deletePrefix` can succeed. */
  readonly supportsDeletes: boolean;
  /** `setPartialValues` can succeed. */
  readonly supportsPartialWrites: boolean;
  /** `list`, `listPrefix` and `listDir` work. */
  readonly supportsListing: boolean;
}
