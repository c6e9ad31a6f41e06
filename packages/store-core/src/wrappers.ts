import { UnsupportedOperationError } from "./errors.js";
import { forwardVersions } from "./forward.js";
import { ForwardingStore } from "./forwarding-store.js";
import { getSizeOf } from "./get-size.js";
import { joinKey, normalizePath, validateKey, validatePrefix } from "./keys.js";
import type { ByteRange } from "./range.js";
import { getRangesOf } from "./ranges-of.js";
import {
  type DirListing,
  type GetOptions,
  isListable,
  isWritable,
  type Listable,
  type Readable,
  type SetOptions,
  type Writable,
} from "./store.js";

/** Options that only carry an abort signal. */
export type SignalOptions = { signal?: AbortSignal };

/**
 * A view of the part of a store under a path, as if that path were the root: key `k` of the
 * view is key `path/k` of the wrapped store.
 * @example
 * ```ts
 * const sub = new PrefixStore(new FsStore("data.zarr"), "group/array");
 * const arr = await openArray(sub); // the array at group/array, seen as the root
 * ```
 * @category Stores
 */
export class PrefixStore implements Readable, Writable, Listable {
  readonly path: string;
  constructor(
    readonly inner: Readable,
    path: string,
  ) {
    this.path = normalizePath(path);
    const has = inner.has;
    if (has) this.has = async (key, options) => has.call(inner, this.full(key), options);
    const write = inner as Partial<Writable>;
    const setIfNotExists = write.setIfNotExists;
    if (setIfNotExists) {
      this.setIfNotExists = async (key, value, options) =>
        setIfNotExists.call(inner, this.full(key), value, options);
    }
    forwardVersions(this, inner, (key) => this.full(key));
  }
  /** The size of a value of the wrapped store, by its full key (see `getSizeOf`). */
  async getSize(key: string, options?: SignalOptions): Promise<number | undefined> {
    return getSizeOf(this.inner, this.full(key), options);
  }
  has?: Readable["has"];
  setIfNotExists?: Writable["setIfNotExists"];
  getVersioned?: Readable["getVersioned"];
  readonly conditionalWrites?: boolean;

  // The one wrapper that checks keys: it builds new ones, and joining could make an invalid
  // key look valid ("" under "a/b" is "a/b"). The wrapped store checks the joined key again
  // only because it cannot tell it came from here.
  private full(key: string): string {
    return joinKey(this.path, validateKey(key));
  }
  private fullPrefix(prefix: string): string {
    validatePrefix(prefix);
    return this.path === "" ? prefix : `${this.path}/${prefix}`;
  }
  private strip(key: string): string {
    return this.path === "" ? key : key.slice(this.path.length + 1);
  }
  private writable(): Writable {
    if (!isWritable(this.inner))
      throw new UnsupportedOperationError("The wrapped store cannot be written");
    return this.inner;
  }
  private listable(): Listable {
    if (!isListable(this.inner))
      throw new UnsupportedOperationError("The wrapped store cannot list keys");
    return this.inner;
  }

  async get(key: string, options?: GetOptions): Promise<Uint8Array | undefined> {
    return this.inner.get(this.full(key), options);
  }
  async getRanges(
    key: string,
    ranges: readonly ByteRange[],
    options?: SignalOptions,
  ): Promise<Uint8Array[] | undefined> {
    return getRangesOf(this.inner, this.full(key), ranges, options);
  }
  async set(key: string, value: Uint8Array, options?: SetOptions): Promise<void> {
    return this.writable().set(this.full(key), value, options);
  }
  async delete(key: string, options?: SetOptions): Promise<void> {
    return this.writable().delete(this.full(key), options);
  }
  async deletePrefix(prefix: string, options?: SetOptions): Promise<void> {
    return this.writable().deletePrefix(this.fullPrefix(prefix), options);
  }
  async *list(): AsyncIterable<string> {
    yield* this.listPrefix("");
  }
  async *listPrefix(prefix: string): AsyncIterable<string> {
    for await (const key of this.listable().listPrefix(this.fullPrefix(prefix)))
      yield this.strip(key);
  }
  async listDir(prefix: string): Promise<DirListing> {
    const { keys, prefixes } = await this.listable().listDir(this.fullPrefix(prefix));
    return { keys: keys.map((k) => this.strip(k)), prefixes: prefixes.map((p) => this.strip(p)) };
  }
}

/** One request seen by a {@link LoggingStore}. */
export interface StoreRequest {
  /** The store method called. */
  method:
    | "get"
    | "getVersioned"
    | "getRanges"
    | "has"
    | "getSize"
    | "set"
    | "setIfNotExists"
    | "delete"
    | "deletePrefix"
    | "list"
    | "listPrefix"
    | "listDir";
  /** The key or prefix it was called with. */
  key: string;
  /** The range read, for ranged reads. */
  range?: ByteRange | readonly ByteRange[];
  /** Bytes returned (reads) or written (writes). */
  bytes: number;
}

/**
 * Records every request made to the wrapped store (and optionally reports each one), so tests
 * and users can see how many reads an operation costs and which keys it touched.
 * @example
 * ```ts
 * const logged = new LoggingStore(new FsStore("data.zarr"));
 * await (await openArray(logged)).get([0, null]);
 * console.log(logged.requests); // every get, with its key and range
 * ```
 * @category Stores
 */
export class LoggingStore extends ForwardingStore {
  /** The requests seen so far, oldest first. */
  readonly requests: StoreRequest[] = [];
  constructor(
    inner: Readable,
    private readonly onRequest?: (request: StoreRequest) => void,
  ) {
    super(inner);
    const { getRanges, has } = inner;
    if (getRanges) {
      this.getRanges = async (key, ranges, options) => {
        const parts = await getRanges.call(inner, key, ranges, options);
        this.record({
          method: "getRanges",
          key,
          range: ranges,
          bytes: parts?.reduce((n, p) => n + p.length, 0) ?? 0,
        });
        return parts;
      };
    }
    if (has) {
      this.has = async (key, options) => {
        this.record({ method: "has", key, bytes: 0 });
        return has.call(inner, key, options);
      };
    }
    const getSize = this.getSize;
    if (getSize) {
      this.getSize = async (key, options) => {
        this.record({ method: "getSize", key, bytes: 0 });
        return getSize(key, options);
      };
    }
    if (isWritable(inner)) this.forwardWrites(inner);
    if (isListable(inner)) this.forwardListing(inner);
    const getVersioned = this.getVersioned;
    if (getVersioned) {
      this.getVersioned = async (key, options) => {
        const versioned = await getVersioned(key, options);
        this.record({ method: "getVersioned", key, bytes: versioned?.value.length ?? 0 });
        return versioned;
      };
    }
  }
  /** The wrapped store's `getRanges`, recorded, when it has one. */
  declare getRanges?: Readable["getRanges"];

  private forwardWrites(inner: Readable & Writable): void {
    this.set = async (key, value, options) => {
      this.record({ method: "set", key, bytes: value.length });
      await inner.set(key, value, options);
    };
    const setIfNotExists = inner.setIfNotExists;
    if (setIfNotExists) {
      this.setIfNotExists = async (key, value, options) => {
        this.record({ method: "setIfNotExists", key, bytes: value.length });
        return setIfNotExists.call(inner, key, value, options);
      };
    }
    this.delete = async (key, options) => {
      this.record({ method: "delete", key, bytes: 0 });
      await inner.delete(key, options);
    };
    this.deletePrefix = async (prefix, options) => {
      this.record({ method: "deletePrefix", key: prefix, bytes: 0 });
      await inner.deletePrefix(prefix, options);
    };
  }

  private forwardListing(inner: Readable & Listable): void {
    const self = this;
    this.list = async function* () {
      self.record({ method: "list", key: "", bytes: 0 });
      yield* inner.list();
    };
    this.listPrefix = async function* (prefix: string) {
      self.record({ method: "listPrefix", key: prefix, bytes: 0 });
      yield* inner.listPrefix(prefix);
    };
    this.listDir = async (prefix) => {
      this.record({ method: "listDir", key: prefix, bytes: 0 });
      return inner.listDir(prefix);
    };
  }

  private record(request: StoreRequest): void {
    this.requests.push(request);
    this.onRequest?.(request);
  }

  /** Forgets the requests recorded so far. */
  clear(): void {
    this.requests.length = 0;
  }

  override async get(key: string, options?: GetOptions): Promise<Uint8Array | undefined> {
    const value = await this.inner.get(key, options);
    this.record({ method: "get", key, range: options?.range, bytes: value?.length ?? 0 });
    return value;
  }
}
