import {
  type ByteRange,
  checkRangesRead,
  checkRead,
  type DirListing,
  type GetOptions,
  groupDirListing,
  isZarrError,
  type Listable,
  type Readable,
  readEachRange,
  resolveRange,
  StoreBase,
  sliceRange,
  validateKey,
  validatePrefix,
} from "@z/store-core";
import type { HttpStoreOptions } from "@z/store-http";
import { ReferenceTargetError } from "./errors.js";
import { type ParseReferencesOptions, parseReferences, type Reference } from "./kerchunk.js";
import { TargetResolution, type TargetResolver } from "./targets.js";

/** Options of a {@link ReferenceStore}. */
export interface ReferenceStoreOptions extends ParseReferencesOptions {
  /**
   * Maps a target URL to a store and key (for `s3://`, `gs://`, `az://` targets, or to route
   * some URLs through a store of your own); undefined leaves the URL to the built-in handling:
   * http(s) through an `HttpStore`, local paths and `file:` URLs through the filesystem (Node).
   */
  resolve?: TargetResolver;
  /** Relative target URLs are resolved against this URL (default: where the document was read). */
  baseUrl?: string;
  /** Options of the `HttpStore`s that read http(s) targets (headers, retries, concurrency). */
  http?: HttpStoreOptions;
  /**
   * Whether targets may be local paths and `file:` URLs (Node). Default true, except for a
   * document `fromUrl` read over http(s): a document from the network could otherwise read any
   * file of the machine that opens it.
   */
  localFiles?: boolean;
}

/**
 * A read-only store over a kerchunk reference document (versions 0 and 1): each key's bytes
 * are held inline in the document or are a byte range of a file or URL, so NetCDF, HDF5, TIFF
 * or raw files indexed by kerchunk open as Zarr without being copied. Targets are read by range
 * from http(s) URLs (`HttpStore`), local files (Node), or any store a `resolve` option maps a
 * URL to. The store lists its keys; ranges within a reference are read as ranges of its target.
 * @example
 * ```ts
 * const store = await ReferenceStore.fromUrl("https://example.org/refs/era5.json");
 * const group = await openGroup(store);
 * ```
 * @category Stores
 */
export class ReferenceStore extends StoreBase implements Readable, Listable {
  /** Every `get` returns a new buffer (see `Readable.freshReads`). */
  readonly freshReads = true;
  readonly #refs: Map<string, Reference>;
  readonly #targets: TargetResolution;

  /**
   * A store over a reference document: its JSON text, bytes or parsed value.
   * @throws InvalidReferenceError when the document is malformed (what and where)
   */
  constructor(document: unknown, options: ReferenceStoreOptions = {}) {
    super();
    this.#refs = parseReferences(document, options);
    this.#targets = new TargetResolution({ ...options, localFiles: options.localFiles ?? true });
  }

  /**
   * Reads a reference document from an http(s) URL, a `file:` URL or a local path (Node);
   * relative targets in it resolve against that location unless `baseUrl` is given.
   * @throws ReferenceTargetError when the document cannot be read
   */
  static async fromUrl(
    location: string,
    options: ReferenceStoreOptions = {},
  ): Promise<ReferenceStore> {
    const remote = /^https?:\/\//i.test(location);
    const loader = new TargetResolution({ ...options, localFiles: !remote });
    const source = await loader.source(location);
    if (typeof source !== "function")
      throw new ReferenceTargetError("(document)", location, source.refused);
    const text = await source(undefined, undefined);
    if (text === undefined)
      throw new ReferenceTargetError("(document)", location, "no reference document there");
    return new ReferenceStore(text, {
      ...options,
      baseUrl: options.baseUrl ?? documentBase(location),
      localFiles: options.localFiles ?? !remote,
    });
  }

  /** How many keys the document references. */
  get size(): number {
    return this.#refs.size;
  }

  /** The reference of a key (inline bytes, or a target URL with its range), or undefined. */
  reference(key: string): Reference | undefined {
    return this.#refs.get(validateKey(key));
  }

  async get(key: string, options?: GetOptions): Promise<Uint8Array | undefined> {
    checkRead(key, options?.range, options?.signal);
    return this.#read(key, options?.range, options?.signal);
  }

  async getRanges(
    key: string,
    ranges: readonly ByteRange[],
    options?: { signal?: AbortSignal },
  ): Promise<Uint8Array[] | undefined> {
    checkRangesRead(key, ranges, options?.signal);
    return readEachRange(
      ranges,
      (range) => this.#read(key, range, options?.signal),
      async () => this.#refs.has(key),
    );
  }

  async has(key: string, options?: { signal?: AbortSignal }): Promise<boolean> {
    checkRead(key, undefined, options?.signal);
    return this.#refs.has(key);
  }

  /**
   * A value's size as the document gives it (inline bytes, a reference's length), with no read;
   * a reference to a whole target is read to measure it. `undefined` for a key the document
   * lacks. A target shorter than its reference says shows when the value is read.
   */
  override async getSize(
    key: string,
    options?: { signal?: AbortSignal },
  ): Promise<number | undefined> {
    checkRead(key, undefined, options?.signal);
    const ref = this.#refs.get(key);
    if (ref === undefined) return undefined;
    if (ref.kind === "inline") return ref.data.length;
    if (ref.length !== undefined) return ref.length;
    return (await this.#read(key, undefined, options?.signal))?.length;
  }

  /** Reads a checked key's value, or a range of it; undefined when the document lacks the key. */
  async #read(
    key: string,
    range: ByteRange | undefined,
    signal: AbortSignal | undefined,
  ): Promise<Uint8Array | undefined> {
    const ref = this.#refs.get(key);
    if (ref === undefined) return undefined;
    if (ref.kind === "inline") return sliceRange(ref.data, range).slice();
    return this.#readTarget(key, ref, range, signal);
  }

  async *list(): AsyncIterable<string> {
    yield* [...this.#refs.keys()].sort();
  }

  async *listPrefix(prefix: string): AsyncIterable<string> {
    validatePrefix(prefix);
    yield* [...this.#refs.keys()].filter((key) => key.startsWith(prefix)).sort();
  }

  async listDir(prefix: string): Promise<DirListing> {
    validatePrefix(prefix);
    return groupDirListing(this.#refs.keys(), prefix);
  }

  /** Reads a referenced range (or a range inside it) of the target. */
  async #readTarget(
    key: string,
    ref: Extract<Reference, { kind: "range" }>,
    range: ByteRange | undefined,
    signal: AbortSignal | undefined,
  ): Promise<Uint8Array> {
    const url = this.#targets.absolute(ref.url);
    const source = await this.#targets.source(url);
    if (typeof source !== "function") throw new ReferenceTargetError(key, url, source.refused);
    let targetRange: ByteRange | undefined = range;
    let expected: number | undefined;
    if (ref.offset !== undefined && ref.length !== undefined) {
      const [start, end] = range === undefined ? [0, ref.length] : resolveRange(range, ref.length);
      expected = end - start;
      if (expected === 0) return new Uint8Array(0);
      targetRange = { offset: ref.offset + start, length: expected };
    }
    let bytes: Uint8Array | undefined;
    try {
      bytes = await source(targetRange, signal);
    } catch (error) {
      if (isZarrError(error) && (error as Error).name === "AbortError") throw error;
      throw new ReferenceTargetError(key, url, `reading it failed: ${(error as Error).message}`, {
        cause: error,
      });
    }
    if (bytes === undefined) throw new ReferenceTargetError(key, url, "the target does not exist");
    if (expected !== undefined && bytes.length !== expected) {
      throw new ReferenceTargetError(
        key,
        url,
        `the reference covers bytes ${ref.offset}..${ref.offset! + ref.length!} but the target gave ${bytes.length} of the ${expected} bytes asked for (it is shorter than the reference says)`,
      );
    }
    return bytes;
  }
}

/**
 * The URL relative targets of a document resolve against: the document's own URL, or for a
 * local path its `file:` URL (a relative path is taken from the working directory).
 */
function documentBase(location: string): string | undefined {
  if (/^[a-zA-Z][a-zA-Z0-9+.-]+:/.test(location) && !/^[a-zA-Z]:[\\/]/.test(location))
    return location;
  const cwd = (globalThis as { process?: { cwd?: () => string } }).process?.cwd?.();
  const absolute = location.startsWith("/")
    ? location
    : cwd && `${cwd.replace(/\/+$/, "")}/${location}`;
  if (!absolute?.startsWith("/")) return undefined;
  return `file://${absolute.split("/").map(encodeURIComponent).join("/")}`;
}
