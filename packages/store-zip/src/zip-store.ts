import {
  asyncDispose,
  type ByteRange,
  checkRangesRead,
  checkRead,
  type DirListing,
  type FullStore,
  folderPrefix,
  type GetOptions,
  groupDirListing,
  normalizePath,
  type Readable,
  ReadOnlyError,
  type SetOptions,
  StoreBase,
  throwIfAborted,
  validateKey,
  validatePrefix,
} from "@z/store-core";
import { type ByteSink, type ByteSource, storeSource } from "./byte-source.js";
import type { ZipEntry } from "./format.js";
import { ZipReader } from "./reader.js";
import { ZipWriter, type ZipWriterOptions } from "./writer.js";

/** Options for reading an archive. */
export interface ZipReadOptions {
  /**
   * The folder inside the archive that is the store's root, e.g. `"data.zarr"`. Default:
   * detected. An archive zipped "from within" has the hierarchy at its root; one zipped "from
   * the parent" has it in a single top-level folder, which is then used. `""` turns detection off.
   */
  prefix?: string;
  /** Check whole-entry reads against their CRC-32 (default true). */
  verifyChecksums?: boolean;
  /** Abort opening. */
  signal?: AbortSignal;
}

/** Options for writing an archive. */
export interface ZipCreateOptions extends ZipWriterOptions {
  /** A folder inside the archive to write the store under (default: the archive's root). */
  prefix?: string;
}

/** File names that mark the root of a Zarr hierarchy (v3, then v2). */
const ROOT_MARKERS = ["zarr.json", ".zgroup", ".zarray", ".zattrs", ".zmetadata"];

/** A name the store can use as a key: the zip's folders and invalid paths are not. */
function asKey(name: string): string | undefined {
  if (name.endsWith("/")) return undefined;
  try {
    return validateKey(name);
  } catch {
    return undefined;
  }
}

/**
 * The prefix of the Zarr root in an archive: `""` when the root holds Zarr metadata or things
 * besides one folder, otherwise that single top-level folder if it holds Zarr metadata.
 */
export function detectPrefix(names: Iterable<string>): string {
  const top = new Set<string>();
  const files = new Set<string>();
  for (const name of names) {
    const slash = name.indexOf("/");
    if (slash === -1) {
      files.add(name);
      top.add("");
    } else top.add(name.slice(0, slash + 1));
  }
  if (ROOT_MARKERS.some((marker) => files.has(marker))) return "";
  if (top.size !== 1) return "";
  const [folder] = top;
  if (folder === "") return "";
  // A lone folder that does not hold Zarr metadata is just a folder of the hierarchy.
  return [...names].some((name) => ROOT_MARKERS.some((marker) => name === folder + marker))
    ? folder
    : "";
}

/**
 * A Zarr store in a zip archive.
 *
 * **Reading** (`ZipStore.open(source)`, `ZipStore.fromStore(store, key)`, or `openZipFile` from
 * `@z/store-zip/node`): the central directory is read once, by range reads of the archive's
 * tail; each `get` then reads only its entry (one request, ranges inside stored entries
 * included), so an archive behind HTTP or on disk is never read whole. Stored and deflate
 * entries, zip64, names in UTF-8 or code page 437. The store is listable (from the central
 * directory) and read-only. When a name appears twice, the later entry wins.
 *
 * **Writing** (`ZipStore.create(target)`, or `createZipFile` from `@z/store-zip/node`): values are
 * appended as stored entries as they are set, and `close()` writes the central directory; the
 * archive is not valid until then. Setting a key again, or deleting it, drops the old entry
 * from the directory (its bytes stay in the file, unreferenced: copy the store to compact it).
 * Reads and listings see what was written so far.
 * @example
 * ```ts
 * const zip = await ZipStore.fromStore(new HttpStore("https://example.org/archives/"), "data.zarr.zip");
 * const arr = await openArray(zip, { path: "temperature" });
 * ```
 * @category Stores
 */
export class ZipStore extends StoreBase implements FullStore {
  /** The folder inside the archive that is the store's root (`""` or ending in `/`). */
  readonly prefix: string;
  readonly #source: ByteSource;
  readonly #reader: ZipReader | undefined;
  readonly #writer: ZipWriter | undefined;
  /** Read mode: the entries by key (relative to the prefix). */
  readonly #entries: Map<string, ZipEntry> | undefined;
  #sortedKeys: string[] | undefined;
  /** Write mode: reads of written entries go through a reader over the target. */
  readonly #writtenReader: ZipReader | undefined;

  private constructor(parts: {
    prefix: string;
    source: ByteSource;
    reader?: ZipReader;
    writer?: ZipWriter;
    entries?: Map<string, ZipEntry>;
  }) {
    super();
    this.prefix = parts.prefix;
    this.#source = parts.source;
    this.#reader = parts.reader;
    this.#writer = parts.writer;
    this.#entries = parts.entries;
    if (parts.writer) this.#writtenReader = ZipReader.forWritten(parts.source);
  }

  /** Opens an archive for reading. */
  static async open(source: ByteSource, options: ZipReadOptions = {}): Promise<ZipStore> {
    const reader = await ZipReader.open(source, options);
    const names = reader.entries.map((entry) => entry.name);
    const prefix = options.prefix === undefined ? detectPrefix(names) : toPrefix(options.prefix);
    const entries = new Map<string, ZipEntry>();
    for (const entry of reader.entries) {
      if (!entry.name.startsWith(prefix)) continue;
      const key = asKey(entry.name.slice(prefix.length));
      if (key !== undefined) entries.set(key, entry);
    }
    return new ZipStore({ prefix, source, reader, entries });
  }

  /**
   * Opens an archive that is a value of another store, read by byte ranges: over HTTP,
   * `ZipStore.fromStore(new HttpStore("https://host/dir/"), "data.zarr.zip")`.
   */
  static fromStore(store: Readable, key: string, options: ZipReadOptions = {}): Promise<ZipStore> {
    return ZipStore.open(storeSource(store, key), options);
  }

  /**
   * Starts a new archive written to `target` (a `MemoryArchive`, or a file through
   * `createZipFile`); the target must also be readable for the store to read back what it wrote.
   * Call {@link ZipStore.close} to complete the archive.
   */
  static create(target: ByteSink & ByteSource, options: ZipCreateOptions = {}): ZipStore {
    return new ZipStore({
      prefix: toPrefix(options.prefix ?? ""),
      source: target,
      writer: new ZipWriter(target, options),
    });
  }

  /** `"read"` for an opened archive, `"write"` for one being created. */
  get mode(): "read" | "write" {
    return this.#writer ? "write" : "read";
  }

  /** The archive entry behind a key (sizes, method, offsets), or undefined. */
  entry(key: string): ZipEntry | undefined {
    validateKey(key);
    return this.#entries ? this.#entries.get(key) : this.#writer!.entries.get(this.prefix + key);
  }

  /**
   * Completes an archive being written (central directory, end records) and closes the target;
   * releases the source of an archive being read. Reads of a written archive keep working when
   * the target can still be read.
   */
  async close(): Promise<void> {
    // The writer closes the target once the archive is complete; a second close releases
    // what reading it back opened.
    if (this.#writer && !this.#writer.closed) await this.#writer.close();
    else await this.#source.close?.();
  }

  /** Closes the store as {@link ZipStore.close} does, for `await using zip = ...`. */
  override async [asyncDispose](): Promise<void> {
    await this.close();
  }

  /** Whether `set` can succeed: an archive being written, not yet closed. */
  override get supportsWrites(): boolean {
    return this.#writer !== undefined && !this.#writer.closed;
  }

  /** A value's size from the central directory (its uncompressed size), with no read. */
  override async getSize(
    key: string,
    options?: { signal?: AbortSignal },
  ): Promise<number | undefined> {
    checkRead(key, undefined, options?.signal);
    return this.#find(key)?.size;
  }

  /** The sum of the uncompressed sizes of the values under `prefix`, from the central directory. */
  override async getSizePrefix(prefix = "", options?: { signal?: AbortSignal }): Promise<number> {
    const folder = folderPrefix(prefix);
    throwIfAborted(options?.signal);
    let total = 0;
    for (const key of this.#keys()) if (key.startsWith(folder)) total += this.#find(key)!.size;
    return total;
  }

  #find(key: string): ZipEntry | undefined {
    return this.#entries ? this.#entries.get(key) : this.#writer!.entries.get(this.prefix + key);
  }

  #readerFor(): ZipReader {
    return (this.#reader ?? this.#writtenReader)!;
  }

  async get(key: string, options?: GetOptions): Promise<Uint8Array | undefined> {
    checkRead(key, options?.range, options?.signal);
    const entry = this.#find(key);
    if (entry === undefined) return undefined;
    return this.#readerFor().read(entry, options?.range, options);
  }

  async getRanges(
    key: string,
    ranges: readonly ByteRange[],
    options?: { signal?: AbortSignal },
  ): Promise<Uint8Array[] | undefined> {
    checkRangesRead(key, ranges, options?.signal);
    const entry = this.#find(key);
    if (entry === undefined) return undefined;
    const reader = this.#readerFor();
    return Promise.all(ranges.map((range) => reader.read(entry, range, options)));
  }

  async has(key: string, options?: { signal?: AbortSignal }): Promise<boolean> {
    validateKey(key);
    throwIfAborted(options?.signal);
    return this.#find(key) !== undefined;
  }

  // ---- writes ----

  #writable(key: string, action = "write"): ZipWriter {
    if (!this.#writer) throw new ReadOnlyError(key, action);
    return this.#writer;
  }

  async set(key: string, value: Uint8Array, options?: SetOptions): Promise<void> {
    validateKey(key);
    throwIfAborted(options?.signal);
    await this.#writable(key).add(this.prefix + key, value, { replace: true });
  }

  async setIfNotExists(key: string, value: Uint8Array, options?: SetOptions): Promise<boolean> {
    validateKey(key);
    throwIfAborted(options?.signal);
    const writer = this.#writable(key);
    // The check and the reservation happen in one turn, so exactly one racing caller wins.
    if (writer.has(this.prefix + key)) return false;
    await writer.add(this.prefix + key, value);
    return true;
  }

  async delete(key: string, options?: SetOptions): Promise<void> {
    validateKey(key);
    throwIfAborted(options?.signal);
    await this.#writable(key, "delete").remove([this.prefix + key]);
  }

  async deletePrefix(prefix: string, options?: SetOptions): Promise<void> {
    validatePrefix(prefix);
    throwIfAborted(options?.signal);
    const full = this.prefix + prefix;
    await this.#writable(prefix, "delete").remove((name) => name.startsWith(full));
  }

  // ---- listing ----

  #keys(): string[] {
    if (this.#entries) {
      this.#sortedKeys ??= [...this.#entries.keys()].sort();
      return this.#sortedKeys;
    }
    const keys: string[] = [];
    for (const name of this.#writer!.entries.keys()) {
      if (name.startsWith(this.prefix)) keys.push(name.slice(this.prefix.length));
    }
    return keys.sort();
  }

  async *list(): AsyncIterable<string> {
    yield* this.#keys();
  }

  async *listPrefix(prefix: string): AsyncIterable<string> {
    validatePrefix(prefix);
    for (const key of this.#keys()) if (key.startsWith(prefix)) yield key;
  }

  async listDir(prefix: string): Promise<DirListing> {
    validatePrefix(prefix);
    return groupDirListing(this.#keys(), prefix);
  }
}

function toPrefix(prefix: string): string {
  const path = normalizePath(prefix);
  return path === "" ? "" : `${path}/`;
}
