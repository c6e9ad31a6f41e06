import {
  AbortError,
  type ByteRange,
  ConflictError,
  type DirListing,
  type FullStore,
  type GetOptions,
  InvalidKeyError,
  isZarrError,
  normalizePath,
  resolveRange,
  type SetOptions,
  StoreBase,
  StoreError,
  throwIfAborted,
  UnsupportedOperationError,
  type VersionedValue,
  validateKey,
  validatePrefix,
  validateRange,
} from "@z/store-core";
import { BrowserStorageError, newVersion } from "./errors.js";

/** Directory handles iterate their entries (lib.dom types this under DOM.AsyncIterable). */
type IterableDirectory = FileSystemDirectoryHandle & {
  entries(): AsyncIterable<[string, FileSystemDirectoryHandle | FileSystemFileHandle]>;
};

/** The Web Locks API, where the browser has it (every current browser, in secure contexts). */
type Locks = {
  request<T>(
    name: string,
    options: { mode: "exclusive"; signal?: AbortSignal },
    callback: () => Promise<T>,
  ): Promise<T>;
};

/** Whether a DOMException says "nothing there" (or "a file where a folder was expected"). */
function isMissing(error: unknown): boolean {
  const name = (error as { name?: string } | null)?.name;
  return name === "NotFoundError" || name === "TypeMismatchError";
}

/**
 * Files being written for new keys are named `__z_tmp_` and 32 hex digits, and moved to the
 * key's name when complete. Zarr never uses such a name (node names may not start with `__`);
 * listings skip them and keys with such a segment are refused, so a file left by a tab closed
 * mid-write never passes for a key (the same rule as FsStore's).
 */
const TEMPORARY_PREFIX = "__z_tmp_";
const TEMPORARY_NAME = /^__z_tmp_[0-9a-f]{32}$/;

/** Whether a file name is one of the store's temporary files. */
function isTemporary(name: string): boolean {
  return name.startsWith(TEMPORARY_PREFIX) && TEMPORARY_NAME.test(name);
}

/** Validates a key (or prefix) by the store-core rules plus the reserved temporary names. */
function checkKey(key: string, validate: (key: string) => string = validateKey): string {
  validate(key);
  if (key.includes(TEMPORARY_PREFIX) && key.split("/").some(isTemporary))
    throw new InvalidKeyError(
      key,
      "names like __z_tmp_<32 hex digits> are OPFSStore's temporary files",
    );
  return key;
}

/** `FileSystemFileHandle.move(newName)` (Chromium, Firefox, Safari 18+; not yet in lib.dom). */
type MovableFileHandle = FileSystemFileHandle & { move(name: string): Promise<void> };

/** Whether file handles of this browser can be renamed in place. */
function canMove(): boolean {
  const proto = (globalThis as { FileSystemFileHandle?: { prototype: object } })
    .FileSystemFileHandle?.prototype;
  return proto !== undefined && typeof (proto as { move?: unknown }).move === "function";
}

/** How often a write walks the folders again after a concurrent delete removed one. */
const WRITE_ATTEMPTS = 5;

/** Options of {@link OPFSStore}. */
export interface OPFSStoreOptions {
  /**
   * The name that scopes this store's Web Locks (default: `"z-opfs:"` and the path given to
   * {@link OPFSStore.open}). Stores over the same folder must use the same scope, so their
   * writes of a key exclude each other.
   */
  lockScope?: string;
}

/**
 * A store in the Origin Private File System (`navigator.storage.getDirectory()`): key
 * `a/c/0/0` is the file `c/0/0` in folder `a`, one folder per key segment. Files are read with
 * `File.slice`, so ranged reads (shard indexes, inner chunks) read only the bytes asked for.
 * Writes go through `createWritable`, which writes to a swap file and swaps it in on
 * `close()`; a new key is written under a temporary name and moved to its name when complete.
 * A reader sees the old value or the new one, never an empty or partial one.
 *
 * Every write and delete of a key holds the Web Lock `<lockScope>/<key>` (shared by every tab
 * and worker of the origin), so conditional writes (`ifMatch`, `ifNoneMatch`,
 * `setIfNotExists`) are atomic against every other write made through an OPFSStore with the
 * same scope, across tabs too. Versions are SHA-256 hashes of the content: a write of the same
 * bytes keeps the version, which is harmless for read-modify-write (the value is what was
 * read). Without the Web Locks API, `conditionalWrites` is false and conditional writes throw
 * `UnsupportedOperationError`. Writes by other code to the same files bypass the locks.
 *
 * An empty folder left by a delete is removed; a key cannot be both a value and a folder
 * (`a` and `a/b`), as on any file system.
 *
 * @example
 * ```ts
 * const store = await OPFSStore.open("arrays/data.zarr");
 * const arr = await createArray(store, { shape: [100], chunks: [10], dtype: "float32" });
 * ```
 * @category Stores
 */
export class OPFSStore extends StoreBase implements FullStore {
  /** Every read is a new buffer from a file. */
  readonly freshReads = true;
  /** True where the Web Locks API exists (see the class description for what is safe). */
  readonly conditionalWrites: boolean;
  /** The prefix of the Web Lock names of this store's keys. */
  readonly lockScope: string;
  private readonly locks: Locks | undefined;

  /**
   * Wraps a folder of the origin private file system; most callers use
   * {@link OPFSStore.open}.
   */
  constructor(
    /** The folder holding the store's keys. */
    readonly root: FileSystemDirectoryHandle,
    options: OPFSStoreOptions = {},
  ) {
    super();
    this.lockScope = options.lockScope ?? `z-opfs:${root.name}`;
    const nav = (globalThis as { navigator?: { locks?: Locks } }).navigator;
    this.locks = nav?.locks;
    this.conditionalWrites = this.locks !== undefined;
  }

  /**
   * Opens the folder `path` (`"a/b"`, `""` for the root) of the origin private file system as
   * a store, creating the folders.
   * @throws BrowserStorageError when the browser has no origin private file system (not a
   *   secure context, or too old) or refuses the folder
   */
  static async open(path = "", options: OPFSStoreOptions = {}): Promise<OPFSStore> {
    const normalized = normalizePath(path);
    const storage = (globalThis as { navigator?: { storage?: StorageManager } }).navigator?.storage;
    if (typeof storage?.getDirectory !== "function")
      throw new BrowserStorageError(
        normalized,
        "open",
        new Error("navigator.storage.getDirectory is missing (not a secure context?)"),
      );
    try {
      let dir = await storage.getDirectory();
      for (const segment of normalized === "" ? [] : normalized.split("/"))
        dir = await dir.getDirectoryHandle(segment, { create: true });
      return new OPFSStore(dir, { lockScope: `z-opfs:${normalized}`, ...options });
    } catch (error) {
      throw new BrowserStorageError(normalized, "open", error);
    }
  }

  /** The folders of a key's segments, from the root down; `undefined` when one is missing. */
  private async folders(
    segments: readonly string[],
    create: boolean,
  ): Promise<FileSystemDirectoryHandle[] | undefined> {
    const chain = [this.root];
    for (const segment of segments) {
      try {
        chain.push(await chain[chain.length - 1].getDirectoryHandle(segment, { create }));
      } catch (error) {
        if (!create && isMissing(error)) return undefined;
        throw error;
      }
    }
    return chain;
  }

  /** The file of a key, or `undefined` when it (or a folder on the way) does not exist. */
  private async file(key: string): Promise<File | undefined> {
    const segments = key.split("/");
    const name = segments.pop()!;
    const chain = await this.folders(segments, false);
    if (chain === undefined) return undefined;
    try {
      const handle = await chain[chain.length - 1].getFileHandle(name);
      return await handle.getFile();
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  }

  /**
   * Reads ranges of a key's file; retries when a write replaced the file between opening it
   * and reading it (Chromium then refuses the stale `File` with `NotReadableError`).
   */
  private async readRanges(
    key: string,
    ranges: readonly (ByteRange | undefined)[],
    signal: AbortSignal | undefined,
  ): Promise<Uint8Array[] | undefined> {
    checkKey(key);
    for (const range of ranges) if (range) validateRange(range);
    throwIfAborted(signal);
    for (let attempt = 1; ; attempt++) {
      try {
        const file = await this.file(key);
        if (file === undefined) return undefined;
        const out: Uint8Array[] = [];
        for (const range of ranges) {
          const [start, end] = range ? resolveRange(range, file.size) : [0, file.size];
          out.push(new Uint8Array(await file.slice(start, end).arrayBuffer()));
        }
        throwIfAborted(signal);
        return out;
      } catch (error) {
        if (isZarrError(error)) throw error;
        // A File read after a write swapped in a new file fails (NotReadableError, or
        // NotFoundError for the old file); the next attempt opens the new one.
        const stale = ["NotReadableError", "NotFoundError"].includes((error as Error).name);
        if (stale && attempt < WRITE_ATTEMPTS) continue;
        throw new BrowserStorageError(key, "read", error);
      }
    }
  }

  async get(key: string, options?: GetOptions): Promise<Uint8Array | undefined> {
    return (await this.readRanges(key, [options?.range], options?.signal))?.[0];
  }

  async getRanges(
    key: string,
    ranges: readonly ByteRange[],
    options?: { signal?: AbortSignal },
  ): Promise<Uint8Array[] | undefined> {
    return this.readRanges(key, ranges, options?.signal);
  }

  async has(key: string, options?: { signal?: AbortSignal }): Promise<boolean> {
    checkKey(key);
    throwIfAborted(options?.signal);
    try {
      return (await this.file(key)) !== undefined;
    } catch (error) {
      throw new BrowserStorageError(key, "read", error);
    }
  }

  /** A value's size from its file, without reading it; `undefined` when missing. */
  override async getSize(
    key: string,
    options?: { signal?: AbortSignal },
  ): Promise<number | undefined> {
    checkKey(key);
    throwIfAborted(options?.signal);
    try {
      return (await this.file(key))?.size;
    } catch (error) {
      throw new BrowserStorageError(key, "read", error);
    }
  }

  async getVersioned(
    key: string,
    options?: { signal?: AbortSignal },
  ): Promise<VersionedValue | undefined> {
    const value = await this.get(key, options);
    return value && { value, version: await contentVersion(value) };
  }

  /** Runs a write of `key` under its Web Lock (when the browser has Web Locks). */
  private async locked<T>(key: string, signal: AbortSignal | undefined, write: () => Promise<T>) {
    throwIfAborted(signal);
    try {
      if (this.locks === undefined) return await write();
      return await this.locks.request(
        `${this.lockScope}/${key}`,
        { mode: "exclusive", signal },
        write,
      );
    } catch (error) {
      if (signal?.aborted) throw new AbortError(signal.reason);
      throw error;
    }
  }

  /** Refuses conditions this store cannot make atomic (no Web Locks). */
  private checkSupported(key: string, options: SetOptions | undefined): void {
    if (this.conditionalWrites) return;
    if (options?.ifMatch !== undefined || options?.ifNoneMatch !== undefined)
      throw new UnsupportedOperationError(
        `Conditional write of ${JSON.stringify(key)}: this browser has no Web Locks API, so ` +
          "the origin private file system store cannot make it atomic",
      );
  }

  /** Throws a ConflictError when the key's current value does not meet the write's condition. */
  private async checkCondition(key: string, options: SetOptions | undefined): Promise<void> {
    if (options?.ifMatch === undefined && options?.ifNoneMatch === undefined) return;
    const current = await this.file(key);
    if (options.ifNoneMatch === "*" && current !== undefined)
      throw new ConflictError(key, "the key exists (ifNoneMatch)");
    if (options.ifMatch !== undefined) {
      if (current === undefined) throw new ConflictError(key, "the key no longer exists");
      const version = await contentVersion(new Uint8Array(await current.arrayBuffer()));
      if (version !== options.ifMatch)
        throw new ConflictError(key, `its version is no longer ${options.ifMatch}`);
    }
  }

  /**
   * Writes a key's file (the caller holds its lock), creating its folders. An existing file is
   * replaced through `createWritable`, which swaps the new content in on `close()`. A new key
   * is written under a temporary name and then moved to its name, so no reader ever sees it
   * empty or half written (creating the file directly would show an empty value until
   * `close()`).
   */
  private async writeFile(key: string, value: Uint8Array, signal: AbortSignal | undefined) {
    const segments = key.split("/");
    const name = segments.pop()!;
    for (let attempt = 1; ; attempt++) {
      let writable: FileSystemWritableFileStream | undefined;
      let temporary: string | undefined;
      let folder: FileSystemDirectoryHandle | undefined;
      try {
        const chain = (await this.folders(segments, true))!;
        folder = chain[chain.length - 1];
        let handle = await folder.getFileHandle(name).catch((error: unknown) => {
          if ((error as Error).name === "NotFoundError") return undefined;
          throw error;
        });
        const movable = handle === undefined && canMove();
        if (handle === undefined) {
          temporary = movable ? `${TEMPORARY_PREFIX}${newVersion()}` : undefined;
          handle = await folder.getFileHandle(temporary ?? name, { create: true });
        }
        writable = await handle.createWritable();
        await writable.write(value as Uint8Array<ArrayBuffer>);
        // An abort before close leaves the old value: the new bytes are in a swap file.
        throwIfAborted(signal);
        await writable.close();
        writable = undefined;
        if (temporary !== undefined) {
          await (handle as MovableFileHandle).move(name);
          temporary = undefined;
        }
        return;
      } catch (error) {
        await writable?.abort().catch(() => {});
        if (temporary !== undefined) await folder?.removeEntry(temporary).catch(() => {});
        if (isZarrError(error)) throw error;
        // A delete in another tab pruned a folder we were walking: walk again.
        if ((error as Error).name === "NotFoundError" && attempt < WRITE_ATTEMPTS) continue;
        if ((error as Error).name === "TypeMismatchError")
          throw new BrowserStorageError(
            key,
            "write",
            new Error("a key on its path is a value, not a folder (or the key is a folder)"),
          );
        throw new BrowserStorageError(key, "write", error);
      }
    }
  }

  async set(key: string, value: Uint8Array, options?: SetOptions): Promise<void> {
    checkKey(key);
    this.checkSupported(key, options);
    await this.locked(key, options?.signal, async () => {
      await this.checkCondition(key, options);
      await this.writeFile(key, value, options?.signal);
    });
  }

  async setIfNotExists(key: string, value: Uint8Array, options?: SetOptions): Promise<boolean> {
    checkKey(key);
    return this.locked(key, options?.signal, async () => {
      if ((await this.file(key)) !== undefined) return false;
      await this.writeFile(key, value, options?.signal);
      return true;
    });
  }

  async delete(key: string, options?: SetOptions): Promise<void> {
    checkKey(key);
    this.checkSupported(key, options);
    await this.locked(key, options?.signal, async () => {
      await this.checkCondition(key, options);
      await this.removeFile(key);
    });
  }

  /** Removes a key's file (the caller holds its lock), then the folders it leaves empty. */
  private async removeFile(key: string): Promise<void> {
    const segments = key.split("/");
    const name = segments.pop()!;
    try {
      const chain = await this.folders(segments, false);
      if (chain === undefined) return;
      const parent = chain[chain.length - 1];
      // Only a file is a key: a folder of the same name holds other keys.
      try {
        await parent.getFileHandle(name);
      } catch (error) {
        if (isMissing(error)) return;
        throw error;
      }
      await parent.removeEntry(name).catch((error: unknown) => {
        if (!isMissing(error)) throw error;
      });
      await pruneEmpty(chain, segments);
    } catch (error) {
      throw new BrowserStorageError(key, "delete", error);
    }
  }

  async deletePrefix(prefix: string, options?: SetOptions): Promise<void> {
    checkKey(prefix, validatePrefix);
    throwIfAborted(options?.signal);
    // Key by key, each under its lock, so a delete never interleaves with a conditional write.
    for (const key of await this.keysUnder(prefix)) {
      throwIfAborted(options?.signal);
      await this.locked(key, options?.signal, () => this.removeFile(key));
    }
  }

  async *list(): AsyncIterable<string> {
    yield* await this.keysUnder("");
  }

  async *listPrefix(prefix: string): AsyncIterable<string> {
    checkKey(prefix, validatePrefix);
    yield* await this.keysUnder(prefix);
  }

  /** Every key under `prefix`, sorted by code units like every store. */
  private async keysUnder(prefix: string): Promise<string[]> {
    try {
      const chain = await this.folders(prefix.split("/").slice(0, -1), false);
      if (chain === undefined) return [];
      const keys: string[] = [];
      await walk(chain[chain.length - 1], prefix, keys);
      return keys.sort();
    } catch (error) {
      throw new BrowserStorageError(prefix, "list", error);
    }
  }

  async listDir(prefix: string): Promise<DirListing> {
    checkKey(prefix, validatePrefix);
    try {
      const chain = await this.folders(prefix.split("/").slice(0, -1), false);
      const listing: DirListing = { keys: [], prefixes: [] };
      if (chain === undefined) return listing;
      for await (const [name, handle] of (chain[chain.length - 1] as IterableDirectory).entries()) {
        if (handle.kind === "file") {
          if (!isTemporary(name)) listing.keys.push(prefix + name);
        }
        // A folder emptied by an interrupted delete holds no key, so it is not listed.
        else if (await holdsAFile(handle)) listing.prefixes.push(`${prefix}${name}/`);
      }
      listing.keys.sort();
      listing.prefixes.sort();
      return listing;
    } catch (error) {
      if (error instanceof StoreError) throw error;
      throw new BrowserStorageError(prefix, "list", error);
    }
  }
}

/** The SHA-256 of a value, in hex: the version of an OPFS value. */
async function contentVersion(value: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", value as BufferSource));
  let hex = "";
  for (const byte of digest) hex += byte.toString(16).padStart(2, "0");
  return hex;
}

/** Collects the keys of every file below `dir`, whose keys start with `prefix`. */
async function walk(dir: FileSystemDirectoryHandle, prefix: string, keys: string[]) {
  for await (const [name, handle] of (dir as IterableDirectory).entries()) {
    if (handle.kind === "directory") await walk(handle, `${prefix}${name}/`, keys);
    else if (!isTemporary(name)) keys.push(prefix + name);
  }
}

/** Whether any file lies below `dir` (stops at the first). */
async function holdsAFile(dir: FileSystemDirectoryHandle): Promise<boolean> {
  for await (const [name, handle] of (dir as IterableDirectory).entries()) {
    if (handle.kind === "directory" ? await holdsAFile(handle) : !isTemporary(name)) return true;
  }
  return false;
}

/**
 * Removes the folders of `chain` (below the root) that are empty, deepest first, and stops at
 * the first that is not: `removeEntry` without `recursive` refuses a folder with anything in it,
 * so a concurrent write into the folder is never lost.
 */
async function pruneEmpty(chain: FileSystemDirectoryHandle[], segments: string[]): Promise<void> {
  for (let depth = segments.length; depth > 0; depth--) {
    try {
      await chain[depth - 1].removeEntry(segments[depth - 1]);
    } catch {
      return;
    }
  }
}
