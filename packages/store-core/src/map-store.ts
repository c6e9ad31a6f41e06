import { checkRangesRead, checkRead } from "./entry-checks.js";
import { ConflictError, NotFoundError, throwIfAborted } from "./errors.js";
import { folderPrefix, validateKey, validatePrefix } from "./keys.js";
import { groupDirListing } from "./listing.js";
import { checkPartialWrite, spliceValue } from "./partial-write.js";
import { type ByteRange, sliceRange } from "./range.js";
import type {
  DirListing,
  FullStore,
  GetOptions,
  PartialWrite,
  SetOptions,
  VersionedValue,
} from "./store.js";
import { StoreBase } from "./store-base.js";

/**
 * Versions of stored values by buffer identity: every write stores a fresh copy, so a value
 * gets a new version exactly when it is replaced, and numbers are never reused.
 */
const versions = new WeakMap<Uint8Array, string>();
let nextVersion = 1;

function versionOf(value: Uint8Array): string {
  let version = versions.get(value);
  if (version === undefined) versions.set(value, (version = `m${nextVersion++}`));
  return version;
}

/**
 * A store over a `Map<string, Uint8Array>`: the adapter that lets a plain `Map` be used as a
 * store, and the reference model the store contract tests compare other stores against.
 * Values are copied on write, so later changes to the caller's buffer do not leak in.
 * @example
 * ```ts
 * const store = new MapStore(new Map());
 * await createArray(store, { shape: [4], dtype: "uint8" });
 * ```
 * @category Stores
 */
export class MapStore extends StoreBase implements FullStore {
  /** The map holding the values; shared with the caller when one was passed in. */
  readonly map: Map<string, Uint8Array>;
  /**
   * Conditional writes are checked and applied in one step of this process, so they are
   * atomic against every other write made through the store.
   */
  readonly conditionalWrites = true;

  constructor(map: Map<string, Uint8Array> = new Map()) {
    super();
    this.map = map;
  }

  async get(key: string, options?: GetOptions): Promise<Uint8Array | undefined> {
    checkRead(key, options?.range, options?.signal);
    const value = this.map.get(key);
    if (value === undefined) return undefined;
    return sliceRange(value, options?.range);
  }

  async getRanges(
    key: string,
    ranges: readonly ByteRange[],
    options?: { signal?: AbortSignal },
  ): Promise<Uint8Array[] | undefined> {
    checkRangesRead(key, ranges, options?.signal);
    const value = this.map.get(key);
    if (value === undefined) return undefined;
    return ranges.map((range) => sliceRange(value, range));
  }

  /** A value's length, `undefined` for a missing key. */
  override async getSize(
    key: string,
    options?: { signal?: AbortSignal },
  ): Promise<number | undefined> {
    checkRead(key, undefined, options?.signal);
    return this.map.get(key)?.length;
  }

  /** The sum of the lengths of the values under `prefix`. */
  override async getSizePrefix(prefix = "", options?: { signal?: AbortSignal }): Promise<number> {
    const folder = folderPrefix(prefix);
    throwIfAborted(options?.signal);
    let total = 0;
    for (const [key, value] of this.map) if (key.startsWith(folder)) total += value.length;
    return total;
  }

  override async isEmpty(prefix = ""): Promise<boolean> {
    const folder = folderPrefix(prefix);
    for (const key of this.map.keys()) if (key.startsWith(folder)) return false;
    return true;
  }

  /**
   * Writes bytes into existing values, extending a value written past its end (the gap is
   * zeros). Every write is checked, and every key found, before any value changes; a value
   * changed gets a new version, as with `set`.
   */
  async setPartialValues(
    writes: readonly PartialWrite[],
    options?: { signal?: AbortSignal },
  ): Promise<void> {
    for (const write of writes) {
      checkPartialWrite(write);
      if (!this.map.has(write.key)) {
        throw new NotFoundError(
          write.key,
          "value",
          "a partial write changes an existing value; set it first",
        );
      }
    }
    throwIfAborted(options?.signal);
    for (const { key, offset, value } of writes) {
      this.map.set(key, spliceValue(this.map.get(key)!, offset, value));
    }
  }

  async has(key: string, options?: { signal?: AbortSignal }): Promise<boolean> {
    validateKey(key);
    throwIfAborted(options?.signal);
    return this.map.has(key);
  }

  async getVersioned(
    key: string,
    options?: { signal?: AbortSignal },
  ): Promise<VersionedValue | undefined> {
    validateKey(key);
    throwIfAborted(options?.signal);
    const value = this.map.get(key);
    return value === undefined ? undefined : { value, version: versionOf(value) };
  }

  async set(key: string, value: Uint8Array, options?: SetOptions): Promise<void> {
    validateKey(key);
    throwIfAborted(options?.signal);
    this.checkCondition(key, options);
    this.map.set(key, value.slice());
  }

  /** Throws a ConflictError when the key does not meet the write's `ifMatch` / `ifNoneMatch`. */
  protected checkCondition(key: string, options: SetOptions | undefined): void {
    if (options?.ifMatch === undefined && options?.ifNoneMatch === undefined) return;
    const current = this.map.get(key);
    if (options.ifNoneMatch === "*" && current !== undefined)
      throw new ConflictError(key, "the key exists (ifNoneMatch)");
    if (options.ifMatch !== undefined) {
      if (current === undefined) throw new ConflictError(key, "the key no longer exists");
      if (versionOf(current) !== options.ifMatch)
        throw new ConflictError(key, `its version is no longer ${options.ifMatch}`);
    }
  }

  async setIfNotExists(key: string, value: Uint8Array, options?: SetOptions): Promise<boolean> {
    validateKey(key);
    throwIfAborted(options?.signal);
    if (this.map.has(key)) return false;
    this.map.set(key, value.slice());
    return true;
  }

  async delete(key: string, options?: SetOptions): Promise<void> {
    validateKey(key);
    throwIfAborted(options?.signal);
    this.checkCondition(key, options);
    this.map.delete(key);
  }

  async deletePrefix(prefix: string, options?: SetOptions): Promise<void> {
    validatePrefix(prefix);
    throwIfAborted(options?.signal);
    if (prefix === "") return this.map.clear();
    for (const key of [...this.map.keys()]) {
      if (key.startsWith(prefix)) this.map.delete(key);
    }
  }

  async *list(): AsyncIterable<string> {
    yield* [...this.map.keys()].sort();
  }

  async *listPrefix(prefix: string): AsyncIterable<string> {
    validatePrefix(prefix);
    yield* [...this.map.keys()].filter((key) => key.startsWith(prefix)).sort();
  }

  async listDir(prefix: string): Promise<DirListing> {
    validatePrefix(prefix);
    return groupDirListing(this.map.keys(), prefix);
  }
}
