import { type FileHandle, lstat, readdir, rm, rmdir, stat, unlink } from "node:fs/promises";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import {
  type ByteRange,
  type DirListing,
  type GetOptions,
  type Listable,
  NotFoundError,
  type PartialWrite,
  type Readable,
  ReadOnlyError,
  type SetOptions,
  StoreBase,
  StoreError,
  throwIfAborted,
  UnsupportedOperationError,
  type VersionedValue,
  type Writable,
} from "@z/store-core";
import { checkPartialWrite, mapBounded } from "@z/store-core/internal";
import { type WriteFolder, writeAtomic } from "./atomic-write.js";
import { contentVersion, writeLocked } from "./conditional-write.js";
import {
  errorCode,
  FsError,
  isNoDirectory,
  isNoFile,
  OutsideRootError,
  toStoreError,
} from "./fs-errors.js";
import { checkKey, checkPrefix, isInside, keyPath, RootPath } from "./paths.js";
import {
  canRefuseLinks,
  canTellOpenedPaths,
  isLinkRefused,
  openedPath,
  type ReadFileOptions,
  readFileInto,
  readFileRanges,
  realPathOfFile,
} from "./read.js";
import { listDirectory, walkKeys } from "./walk.js";
import { type Patch, writeInPlace } from "./write-in-place.js";

/** Options of an {@link FsStore}. */
export interface FsStoreOptions {
  /** Refuse every write with `ReadOnlyError`, before touching the disk (default false). */
  readOnly?: boolean;
  /**
   * Create the root folder (and its parents) on the first write if it does not exist
   * (default true). With false, writing to a missing root fails with `NotFoundError`.
   */
  mkdir?: boolean;
  /**
   * Flush each value to the disk before it replaces the old one (default true), so that even
   * after a power cut a key holds its old or its new value. Without it, a killed process still
   * never leaves a partial value, but the OS may lose recent writes on a power cut, and on some
   * file systems leave an empty file. Costs about 0.3 ms per write here (see the README).
   */
  fsync?: boolean;
  /**
   * Milliseconds after which a key's lock file is taken to be left by a crashed writer and is
   * broken (default 30 000). A conditional write holds its key's lock only while it checks
   * the version and writes one value.
   */
  lockStaleMs?: number;
  /**
   * Take a lock file for each conditional write (`ifMatch`, `ifNoneMatch`, `setIfNotExists`;
   * default true), which makes them atomic against every other conditional write of the key,
   * in this process or another, and gives the store `conditionalWrites`: arrays then
   * read-modify-write chunks without losing updates of other processes. A `set` or `delete`
   * without a condition never takes a lock. With false, conditional writes are refused, and
   * arrays serialise their read-modify-writes within the process only: for a folder that one
   * process writes.
   */
  lockFiles?: boolean;
}

/**
 * A store in a folder of the local file system: key `a/c/0/0` is the file `<root>/a/c/0/0`
 * on every platform.
 *
 * - Keys are validated (no `..`, `.`, empty segments, `\`, NUL, leading or trailing `/`), so the
 *   store never builds a path outside its root. Symlinks are followed while their target stays
 *   inside the root's real path; a read, write or delete through a link that leads outside is
 *   refused with `OutsideRootError`, and listings skip such links. The store never creates one.
 * - Only regular files are values: a FIFO, socket or device is an `FsError` (found without
 *   blocking), a folder reads as missing. Every file system failure is a typed error:
 *   `InvalidKeyError` for names the file system cannot hold (`ENAMETOOLONG`), `FsError` (with
 *   `key`, `path`, `code` and `cause`) for the rest.
 * - Writes are atomic: the value goes to a temporary file `__z_tmp_<uuid>` next to the target,
 *   is flushed (option `fsync`), and is renamed over it, so readers never see a partial value.
 *   Temporary files are never listed, and keys that look like them are refused.
 * - Ranged reads read only the bytes asked for.
 * - `delete` removes the folders it leaves empty, up to the root.
 * - A conditional write (`ifMatch`, `ifNoneMatch`, `setIfNotExists`) holds the key's lock file
 *   (`lockFiles`, default true) while it checks and writes, so conditional writes
 *   (`getVersioned` + `ifMatch`) hold across processes. A `set` or `delete` without a
 *   condition takes no lock and reads nothing: an open, a write, a close and a rename. It is a
 *   blind replacement: when it lands while another process's conditional write of the key is
 *   between its check and its rename, that write replaces it (the conditional write's update
 *   is never the one lost).
 * - Folders are looked up once and kept: on Linux a chunk write then costs 5 system calls (open,
 *   a check of where the new file really is, write, close, rename), a `getInto` 4, a `get` 5
 *   (the size comes from an `fstat`), a missing key 1 (see the README).
 * @example
 * ```ts
 * const store = new FsStore("data.zarr"); // created if missing
 * const arr = await createArray(store, { shape: [100, 100], chunks: [10, 10], dtype: "int16" });
 * await arr.set(null, 1); // one file per chunk under data.zarr/c/
 * ```
 * @category Stores
 */
export class FsStore extends StoreBase implements Readable, Writable, Listable {
  /** The absolute path of the store's folder. */
  readonly root: string;
  /** Whether writes are refused. */
  readonly readOnly: boolean;
  /** Whether values are flushed to the disk before they replace the old ones. */
  readonly fsync: boolean;
  /** Every read is a new buffer (see `Readable.freshReads`). */
  readonly freshReads = true;
  /** `set` and `delete` honour `ifMatch` / `ifNoneMatch` across processes (lock files). */
  readonly conditionalWrites: boolean;
  private readonly createRoot: boolean;
  private readonly rootPath: RootPath;
  private readonly lockStaleMs: number | undefined;

  /**
   * @param root the store's folder, as a path or a `file:` URL; it need not exist yet
   */
  constructor(root: string | URL, options: FsStoreOptions = {}) {
    super();
    this.root = path.resolve(root instanceof URL ? fileURLToPath(root) : root);
    this.readOnly = options.readOnly ?? false;
    this.createRoot = options.mkdir ?? true;
    this.fsync = options.fsync ?? true;
    this.rootPath = new RootPath(this.root);
    this.lockStaleMs = options.lockStaleMs;
    this.conditionalWrites = options.lockFiles ?? true;
  }

  /** The file path of a key (after validating it). */
  pathOf(key: string): string {
    return keyPath(this.root, checkKey(key));
  }

  async get(key: string, options?: GetOptions): Promise<Uint8Array | undefined> {
    const parts = await this.readRanges(key, [options?.range], options?.signal);
    return parts?.[0];
  }

  async getRanges(
    key: string,
    ranges: readonly ByteRange[],
    options?: { signal?: AbortSignal },
  ): Promise<Uint8Array[] | undefined> {
    return this.readRanges(key, ranges, options?.signal);
  }

  /**
   * Reads a whole value into `target` when it fits, with no allocation (see
   * `Readable.getInto`): resolves to the value's size, its bytes in `target[0, size)`; when the
   * value is larger than `target`, to the value's size (`target` then holds its first bytes).
   * `undefined` when the key does not exist. One open, one read and one close: no `fstat` when
   * it fits.
   */
  async getInto(
    key: string,
    target: Uint8Array,
    options?: { signal?: AbortSignal },
  ): Promise<number | undefined> {
    return this.readChecked(key, options?.signal, (file, readOptions) =>
      readFileInto(file, target, readOptions),
    );
  }

  /** Reads ranges of a key's file, after checking where its path really leads. */
  private readRanges(
    key: string,
    ranges: readonly (ByteRange | undefined)[],
    signal: AbortSignal | undefined,
  ): Promise<Uint8Array[] | undefined> {
    return this.readChecked(key, signal, (file, readOptions) =>
      readFileRanges(file, ranges, readOptions),
    );
  }

  /**
   * Runs a read of a key's file where its path really leads, refused outside the root. The
   * folder's real path is kept after the first read in it (see `RootPath.resolveInFolder`) and
   * the file opened without following a link at its name; only a name that is a link (or a
   * platform that cannot refuse links) costs a full `realpath` per read.
   */
  private async readChecked<T>(
    key: string,
    signal: AbortSignal | undefined,
    read: (file: string, options: ReadFileOptions) => Promise<T | undefined>,
  ): Promise<T | undefined> {
    const file = this.pathOf(key);
    throwIfAborted(signal);
    try {
      const known = this.rootPath.knowsFolderOf(file);
      const inFolder = canRefuseLinks
        ? await this.rootPath.resolveInFolder(file, key, "read")
        : undefined;
      if (inFolder !== undefined) {
        try {
          const value = await read(inFolder, {
            signal,
            key,
            noFollow: true,
            // A kept folder may have been swapped for a link since it was resolved; where the
            // system tells what was opened, that is checked before anything is read.
            checkOpened: known ? (real) => this.rootPath.check(real, key, "read") : undefined,
          });
          // Through a direct folder (no link on the way) the open walked the same folders as
          // a full resolution would: missing is missing.
          if (value !== undefined || !known || this.rootPath.directFolder(path.dirname(file)))
            return value;
          // Nothing there through a kept folder path that went through a link: the link may
          // have been changed since; look again.
          this.rootPath.forget(file);
        } catch (error) {
          if (error instanceof OutsideRootError) this.rootPath.forget(file);
          if (!isLinkRefused(error)) throw error;
          // The name is a symlink: resolved in full and checked below.
        }
      }
      const real = await this.rootPath.resolve(file, key, "read");
      if (real === undefined) return undefined;
      return await read(real, { signal, key });
    } catch (error) {
      throw toStoreError(error, key, file, "read");
    }
  }

  async has(key: string, options?: { signal?: AbortSignal }): Promise<boolean> {
    const file = this.pathOf(key);
    throwIfAborted(options?.signal);
    try {
      const real = await this.rootPath.resolve(file, key, "read");
      return real !== undefined && (await stat(real)).isFile();
    } catch (error) {
      if (isNoFile(error)) return false;
      throw toStoreError(error, key, file, "read");
    }
  }

  /** A value's size from its file's `stat`, without reading it; `undefined` when missing. */
  override async getSize(
    key: string,
    options?: { signal?: AbortSignal },
  ): Promise<number | undefined> {
    const file = this.pathOf(key);
    throwIfAborted(options?.signal);
    try {
      const real = await this.rootPath.resolve(file, key, "read");
      if (real === undefined) return undefined;
      const stats = await stat(real);
      if (stats.isDirectory()) return undefined;
      if (!stats.isFile()) {
        throw new FsError(key, real, "read", "only regular files are values; this is not one");
      }
      return stats.size;
    } catch (error) {
      if (isNoFile(error)) return undefined;
      throw toStoreError(error, key, file, "read");
    }
  }

  /** Whether writes are allowed (not `readOnly`), under zarr-python's name. */
  override get supportsWrites(): boolean {
    return !this.readOnly;
  }

  /**
   * Writes bytes into existing values in place (zarr-python's `LocalStore.set_partial_values`):
   * each file is opened without truncation and written at the offsets, so the bytes outside the
   * written ranges never change, even when the process dies mid-write; writing past the end
   * extends the file (the gap reads as zeros). Unlike `set`, a partial write is not atomic: a
   * reader may see part of it, and a crash may leave part of it. It is a blind write, like a
   * `set` without condition: it takes no lock, and a conditional write of the key that lands
   * meanwhile replaces it. Writes to one key are applied in order; several keys are written at
   * once. Every write is checked (keys, offsets) before any file changes.
   * @throws NotFoundError for a key without a value; ReadOnlyError on a read-only store
   */
  async setPartialValues(
    writes: readonly PartialWrite[],
    options?: { signal?: AbortSignal },
  ): Promise<void> {
    const byKey = new Map<string, Patch[]>();
    for (const write of writes) {
      checkPartialWrite(write);
      this.checkWritable(write.key, "write");
      const patches = byKey.get(write.key);
      const patch = { offset: write.offset, value: write.value };
      if (patches) patches.push(patch);
      else byKey.set(write.key, [patch]);
    }
    throwIfAborted(options?.signal);
    await mapBounded([...byKey], ([key, patches]) => this.patch(key, patches), options);
  }

  private async patch(key: string, patches: readonly Patch[]): Promise<void> {
    const file = this.pathOf(key);
    let found: boolean;
    try {
      const real = await this.rootPath.resolve(file, key, "write");
      found =
        real !== undefined &&
        (await writeInPlace(real, key, patches, {
          fsync: this.fsync,
          checkOpened: (opened) => this.rootPath.check(opened, key, "write"),
        }));
    } catch (error) {
      throw toStoreError(error, key, file, "write");
    }
    if (!found) {
      throw new NotFoundError(
        key,
        "value",
        "a partial write changes an existing value; set it first",
      );
    }
  }

  async getVersioned(
    key: string,
    options?: { signal?: AbortSignal },
  ): Promise<VersionedValue | undefined> {
    const parts = await this.readRanges(key, [undefined], options?.signal);
    const value = parts?.[0];
    return value === undefined ? undefined : { value, version: contentVersion(value) };
  }

  /**
   * Writes a whole value. Without `ifMatch` / `ifNoneMatch` it takes no lock and reads
   * nothing (see the class notes); with one, it holds the key's lock file while it checks
   * the condition and writes.
   */
  async set(key: string, value: Uint8Array, options?: SetOptions): Promise<void> {
    if (!isConditional(options)) {
      await this.write(key, value, false, options?.signal);
      return;
    }
    await this.writeUnderLock(key, options, (directory) =>
      this.write(key, value, false, options?.signal, directory),
    );
  }

  async setIfNotExists(key: string, value: Uint8Array, options?: SetOptions): Promise<boolean> {
    return this.writeUnderLock(key, options, (directory) =>
      this.write(key, value, true, options?.signal, directory),
    );
  }

  /**
   * Runs a write of `key` under its lock file, after checking `ifMatch` / `ifNoneMatch`;
   * `write` gets the key's folder when it existed before the lock was taken.
   */
  private async writeUnderLock(
    key: string,
    options: SetOptions | undefined,
    write: (directory?: WriteFolder) => Promise<boolean>,
  ): Promise<boolean> {
    this.checkWritable(key, "write");
    const lexical = this.pathOf(key);
    try {
      if (!this.conditionalWrites) return await this.unlocked(key, options, () => write());
      // The lock lives in the key's folder (as the write finds it); the lexical path stands
      // while the folder does not exist yet (creating it checks it). Through a kept folder
      // swapped for a link out of the root since, the lock and the version check would touch
      // a file outside, but the write itself is refused before a byte is written.
      const directory = await this.folderForWrite(path.dirname(lexical), key, false);
      const file = path.join(directory?.path ?? path.dirname(lexical), path.basename(lexical));
      const lock = {
        staleMs: this.lockStaleMs,
        createDirectory: async (directory: string) => {
          await this.resolveDirectory(directory, key, true);
        },
      };
      return (await writeLocked(key, file, options, lock, () => write(directory))) ?? false;
    } catch (error) {
      throw await this.explainWriteError(key, lexical, error);
    }
  }

  /** A write without lock file (option `lockFiles: false`), which refuses conditions. */
  private unlocked<T>(key: string, options: SetOptions | undefined, write: () => Promise<T>) {
    if (options?.ifMatch !== undefined || options?.ifNoneMatch !== undefined) {
      throw new UnsupportedOperationError(
        `Conditional write of ${JSON.stringify(key)}: this FsStore was opened with lockFiles: false`,
      );
    }
    return write();
  }

  /**
   * Deletes a value. Without `ifMatch` it takes no lock (a blind delete, like a blind `set`);
   * with it, it holds the key's lock file while it checks and deletes.
   */
  async delete(key: string, options?: SetOptions): Promise<void> {
    this.checkWritable(key, "delete");
    const lexical = this.pathOf(key);
    throwIfAborted(options?.signal);
    try {
      // The link at the key itself may go (it is inside); the folders above must be inside.
      const found = isConditional(options) ? undefined : await this.keptFolderOf(lexical, key);
      const directory =
        found === undefined
          ? await this.rootPath.resolve(path.dirname(lexical), key, "delete")
          : found;
      if (directory === undefined || directory === null) return;
      const file = path.join(directory, path.basename(lexical));
      const lock = { staleMs: this.lockStaleMs };
      const removed = !isConditional(options)
        ? await removeFile(file)
        : this.conditionalWrites
          ? await writeLocked(key, file, options, lock, () => removeFile(file))
          : await this.unlocked(key, options, () => removeFile(file));
      // After the lock is released: its file would keep the folder from being pruned.
      if (removed) {
        // The kept paths of the folders it pruned go too (a write or read through a kept
        // folder that is gone would only meet ENOENT and look again, but needlessly).
        let pruned = await this.prune(directory);
        for (let folder = lexical; pruned > 0; pruned--) {
          this.rootPath.forget(folder);
          folder = path.dirname(folder);
        }
      }
    } catch (error) {
      throw toStoreError(error, key, lexical, "delete");
    }
  }

  /**
   * The real folder of a key's file, found through its kept folder without a lookup and checked
   * on the opened file (Linux), as writes do: `null` when there is no file (nothing to delete),
   * `undefined` when the folder must be looked up (not kept, a link at the name, no `/proc`).
   * An unlink cannot be checked after the fact, so the file is opened first.
   */
  private async keptFolderOf(lexical: string, key: string): Promise<string | null | undefined> {
    const folder = path.dirname(lexical);
    const kept = this.rootPath.directFolder(folder);
    if (kept === undefined || kept === this.root) return undefined;
    const real = await realPathOfFile(path.join(kept, path.basename(lexical)));
    if (real === null || real === undefined) return real;
    try {
      await this.rootPath.check(real, key, "delete");
    } catch (error) {
      this.rootPath.forgetFolder(folder);
      throw error;
    }
    return path.dirname(real);
  }

  async deletePrefix(prefix: string, options?: SetOptions): Promise<void> {
    this.checkWritable(prefix, "delete");
    checkPrefix(prefix);
    throwIfAborted(options?.signal);
    const lexical = keyPath(this.root, prefix);
    this.rootPath.forget();
    try {
      if (prefix === "") return await this.clearRoot();
      await this.removePrefixFolder(prefix, lexical);
    } catch (error) {
      throw toStoreError(error, prefix, lexical, "delete");
    }
  }

  private async removePrefixFolder(prefix: string, lexical: string): Promise<void> {
    // The folders above must be inside the root; the prefix's own folder, if a link, is
    // removed as a link (Node's rm never follows the links inside a tree it removes).
    const parent = await this.rootPath.resolve(path.dirname(lexical), prefix, "delete");
    if (parent === undefined) return;
    const directory = path.join(parent, path.basename(lexical));
    let stats: Awaited<ReturnType<typeof lstat>>;
    try {
      stats = await lstat(directory);
    } catch (error) {
      if (isNoDirectory(error)) return;
      throw error;
    }
    if (stats.isDirectory()) {
      await removeTree(directory);
    } else if (stats.isSymbolicLink() && (await isDirectory(directory))) {
      // The keys under a linked folder go with the link; the folder it points to stays.
      await unlink(directory);
    } else {
      return; // A file: the key `a` is not under the prefix `a/`.
    }
    await this.prune(parent);
  }

  async *list(): AsyncGenerator<string> {
    yield* this.listPrefix("");
  }

  async *listPrefix(prefix: string): AsyncGenerator<string> {
    checkPrefix(prefix);
    const directory = keyPath(this.root, prefix);
    try {
      const realRoot = await this.realRootForListing();
      if (realRoot === undefined) return;
      yield* walkKeys(directory, prefix, realRoot);
    } catch (error) {
      throw toStoreError(error, prefix, directory, "list");
    }
  }

  async listDir(prefix: string): Promise<DirListing> {
    checkPrefix(prefix);
    const directory = keyPath(this.root, prefix);
    try {
      const realRoot = await this.realRootForListing();
      if (realRoot === undefined) return { keys: [], prefixes: [] };
      return await listDirectory(directory, prefix, realRoot);
    } catch (error) {
      throw toStoreError(error, prefix, directory, "list");
    }
  }

  /** The root's real path; undefined when the root is missing (an empty store). */
  private async realRootForListing(): Promise<string | undefined> {
    try {
      return await this.rootPath.real();
    } catch (error) {
      if (isNoDirectory(error)) return undefined;
      throw error;
    }
  }

  private checkWritable(key: string, action: string): void {
    if (this.readOnly) throw new ReadOnlyError(key, action);
  }

  /**
   * Writes a value through a temporary file and a rename (see `writeAtomic`), in `known` (the
   * key's folder, already found) or in the folder found by {@link folderForWrite}.
   */
  private async write(
    key: string,
    value: Uint8Array,
    exclusive: boolean,
    signal?: AbortSignal,
    known?: WriteFolder,
  ) {
    this.checkWritable(key, "write");
    const file = this.pathOf(key);
    try {
      return await writeAtomic(file, value, {
        fsync: this.fsync,
        exclusive,
        signal,
        resolveDirectory: (directory, create) =>
          known !== undefined && !create
            ? Promise.resolve(known)
            : this.folderForWrite(directory, key, create),
      });
    } catch (error) {
      throw await this.explainWriteError(key, file, error);
    }
  }

  /**
   * The folder a write of `key` goes in. A folder already resolved (by a read or write in it)
   * is used as kept, with no lookup, where the system tells where an open file really is: the
   * new temporary file is then checked to be inside the root before a byte is written to it.
   * A kept folder that was removed since makes the write fail with ENOENT, and `writeAtomic`
   * asks again with `create`: the folder is then forgotten, resolved and created.
   */
  private async folderForWrite(
    directory: string,
    key: string,
    create: boolean,
  ): Promise<WriteFolder | undefined> {
    if (!create && canTellOpenedPaths) {
      const kept = this.rootPath.directFolder(directory);
      // A name in the root itself is inside whatever the root leads to, as for reads.
      if (kept === this.root) return { path: kept };
      if (kept !== undefined) {
        return { path: kept, checkOpened: (handle) => this.checkOpened(handle, directory, key) };
      }
    }
    if (create) this.rootPath.forgetFolder(directory);
    const real = await this.resolveDirectory(directory, key, create);
    if (real === undefined) return undefined;
    this.rootPath.keep(directory, real);
    return { path: real };
  }

  /** Refuses a file opened through a kept folder that now leads outside the root. */
  private async checkOpened(handle: FileHandle, directory: string, key: string): Promise<void> {
    const real = await openedPath(handle);
    try {
      if (real !== undefined) await this.rootPath.check(real, key, "write");
      // Without /proc (some containers), the folder is resolved and checked the usual way.
      else await this.rootPath.resolve(directory, key, "write");
    } catch (error) {
      this.rootPath.forgetFolder(directory);
      throw error;
    }
  }

  /** The real folder a write goes to, created when asked; refused when outside the root. */
  private async resolveDirectory(
    directory: string,
    key: string,
    create: boolean,
  ): Promise<string | undefined> {
    if (create && !this.createRoot && !(await isDirectory(this.root))) {
      throw new NotFoundError(
        this.root,
        "store folder",
        "create it, or open the store with {mkdir: true}",
      );
    }
    return this.rootPath.resolveDirectory(directory, key, "write", create);
  }

  /** Turns the errors of a key/folder clash into messages that say what happened. */
  private async explainWriteError(key: string, file: string, error: unknown): Promise<unknown> {
    const code = errorCode(error);
    if (code === "ENOTDIR" || code === "EEXIST") {
      return new StoreError(
        `Cannot write ${JSON.stringify(key)} in ${this.root}: a part of its path is a value, ` +
          "so it cannot also be a folder of keys; delete that value first",
        { cause: error },
      );
    }
    // Windows reports a rename over a folder as EPERM or EACCES.
    if (
      code === "EISDIR" ||
      ((code === "EPERM" || code === "EACCES") && (await isDirectory(file)))
    ) {
      return new StoreError(
        `Cannot write ${JSON.stringify(key)} in ${this.root}: there are keys under ` +
          `"${key}/", so it cannot also be a value; deletePrefix("${key}/") first`,
        { cause: error },
      );
    }
    return toStoreError(error, key, file, "write");
  }

  /**
   * Removes `directory` (a real path) and its parents while they are empty, stopping below the
   * root's real path; resolves to how many it removed.
   */
  private async prune(directory: string): Promise<number> {
    const root = await this.rootPath.real();
    let removed = 0;
    while (directory !== root && isInside(root, directory)) {
      try {
        await rmdir(directory);
      } catch {
        break; // Not empty (or already gone, or a link): the rest of the way up stays.
      }
      removed++;
      directory = path.dirname(directory);
    }
    return removed;
  }

  private async clearRoot(): Promise<void> {
    let names: string[];
    try {
      names = await readdir(this.root);
    } catch (error) {
      if (isNoDirectory(error)) return;
      throw error;
    }
    await Promise.all(names.map((name) => removeTree(path.join(this.root, name))));
  }
}

/** Whether a write asks for a condition (and so takes the key's lock). */
function isConditional(options: SetOptions | undefined): boolean {
  return options?.ifMatch !== undefined || options?.ifNoneMatch !== undefined;
}

/**
 * Removes a file or folder tree. A write racing the removal can add a file to a folder just
 * emptied (ENOTEMPTY); Node's own retries remove it on the next pass.
 */
function removeTree(file: string): Promise<void> {
  return rm(file, { recursive: true, force: true, maxRetries: 8, retryDelay: 5 });
}

/** Unlinks a value's file; resolves to whether there was one. */
async function removeFile(file: string): Promise<boolean> {
  try {
    await unlink(file);
    return true;
  } catch (error) {
    if (isNoFile(error)) return false;
    // Unlinking a directory is EPERM on macOS and Windows: there is no value to delete.
    if (errorCode(error) === "EPERM" && (await isDirectory(file))) return false;
    throw error;
  }
}

async function isDirectory(file: string): Promise<boolean> {
  try {
    return (await stat(file)).isDirectory();
  } catch {
    return false;
  }
}
