import { lstat, mkdir, readdir, rm, rmdir, stat, unlink } from "node:fs/promises";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import {
  type ByteRange,
  type DirListing,
  type GetOptions,
  type Listable,
  NotFoundError,
  type Readable,
  ReadOnlyError,
  type SetOptions,
  StoreError,
  throwIfAborted,
  type Writable,
} from "@z/store-core";
import { writeAtomic } from "./atomic-write.js";
import { errorCode, isNoDirectory, isNoFile } from "./fs-errors.js";
import { checkKey, checkPrefix, keyPath } from "./paths.js";
import { readFileRanges } from "./read.js";
import { listDirectory, walkKeys } from "./walk.js";

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
}

/**
 * A store in a folder of the local file system: key `a/c/0/0` is the file `<root>/a/c/0/0`
 * on every platform.
 *
 * - Keys are validated (no `..`, `.`, empty segments, `\`, NUL, leading or trailing `/`), so the
 *   store never builds a path outside its root. Symlinks inside the root are followed: they
 *   are the user's choice (say, chunks on another disk); the store never creates one.
 * - Writes are atomic: the value goes to a temporary file `__z_tmp_<uuid>` next to the target,
 *   is flushed, and is renamed over it. Temporary files are never listed, and keys that look
 *   like them are refused.
 * - Ranged reads read only the bytes asked for.
 * - `delete` removes the folders it leaves empty, up to the root.
 * @example
 * ```ts
 * const store = new FsStore("data.zarr"); // created if missing
 * const arr = await createArray(store, { shape: [100, 100], chunks: [10, 10], dtype: "int16" });
 * await arr.set(null, 1); // one file per chunk under data.zarr/c/
 * ```
 * @category Stores
 */
export class FsStore implements Readable, Writable, Listable {
  /** The absolute path of the store's folder. */
  readonly root: string;
  /** Whether writes are refused. */
  readonly readOnly: boolean;
  /** Whether values are flushed to the disk before they replace the old ones. */
  readonly fsync: boolean;
  /** Every read is a new buffer (see `Readable.freshReads`). */
  readonly freshReads = true;
  private readonly createRoot: boolean;

  /**
   * @param root the store's folder, as a path or a `file:` URL; it need not exist yet
   */
  constructor(root: string | URL, options: FsStoreOptions = {}) {
    this.root = path.resolve(root instanceof URL ? fileURLToPath(root) : root);
    this.readOnly = options.readOnly ?? false;
    this.createRoot = options.mkdir ?? true;
    this.fsync = options.fsync ?? true;
  }

  /** The file path of a key (after validating it). */
  pathOf(key: string): string {
    return keyPath(this.root, checkKey(key));
  }

  async get(key: string, options?: GetOptions): Promise<Uint8Array | undefined> {
    const file = this.pathOf(key);
    const parts = await readFileRanges(file, [options?.range], options?.signal);
    return parts?.[0];
  }

  async getRanges(
    key: string,
    ranges: readonly ByteRange[],
    options?: { signal?: AbortSignal },
  ): Promise<Uint8Array[] | undefined> {
    const file = this.pathOf(key);
    return readFileRanges(file, ranges, options?.signal);
  }

  async has(key: string, options?: { signal?: AbortSignal }): Promise<boolean> {
    const file = this.pathOf(key);
    throwIfAborted(options?.signal);
    try {
      return (await stat(file)).isFile();
    } catch (error) {
      if (isNoFile(error)) return false;
      throw error;
    }
  }

  async set(key: string, value: Uint8Array, options?: SetOptions): Promise<void> {
    await this.write(key, value, false, options?.signal);
  }

  async setIfNotExists(key: string, value: Uint8Array, options?: SetOptions): Promise<boolean> {
    return this.write(key, value, true, options?.signal);
  }

  async delete(key: string, options?: SetOptions): Promise<void> {
    this.checkWritable(key, "delete");
    const file = this.pathOf(key);
    throwIfAborted(options?.signal);
    try {
      await unlink(file);
    } catch (error) {
      if (isNoFile(error)) return;
      // Unlinking a directory is EPERM on macOS and Windows: there is no value to delete.
      if (errorCode(error) === "EPERM" && (await isDirectory(file))) return;
      throw error;
    }
    await this.prune(path.dirname(file));
  }

  async deletePrefix(prefix: string, options?: SetOptions): Promise<void> {
    this.checkWritable(prefix, "delete");
    checkPrefix(prefix);
    throwIfAborted(options?.signal);
    if (prefix === "") return this.clearRoot();
    const directory = keyPath(this.root, prefix);
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
    await this.prune(path.dirname(directory));
  }

  async *list(): AsyncGenerator<string> {
    yield* walkKeys(this.root, "");
  }

  async *listPrefix(prefix: string): AsyncGenerator<string> {
    checkPrefix(prefix);
    yield* walkKeys(keyPath(this.root, prefix), prefix);
  }

  async listDir(prefix: string): Promise<DirListing> {
    checkPrefix(prefix);
    return listDirectory(keyPath(this.root, prefix), prefix);
  }

  private checkWritable(key: string, action: string): void {
    if (this.readOnly) throw new ReadOnlyError(key, action);
  }

  private async write(key: string, value: Uint8Array, exclusive: boolean, signal?: AbortSignal) {
    this.checkWritable(key, "write");
    const file = this.pathOf(key);
    try {
      return await writeAtomic(file, value, {
        fsync: this.fsync,
        exclusive,
        signal,
        ensureDirectory: (directory) => this.ensureDirectory(directory),
      });
    } catch (error) {
      throw await this.explainWriteError(key, file, error);
    }
  }

  private async ensureDirectory(directory: string): Promise<void> {
    if (!this.createRoot && !(await isDirectory(this.root))) {
      throw new NotFoundError(
        this.root,
        "store folder",
        "create it, or open the store with {mkdir: true}",
      );
    }
    await mkdir(directory, { recursive: true });
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
    return error;
  }

  /** Removes `directory` and its parents while they are empty, stopping below the root. */
  private async prune(directory: string): Promise<void> {
    const inside = this.root + path.sep;
    while (directory.startsWith(inside)) {
      try {
        await rmdir(directory);
      } catch {
        return; // Not empty (or already gone, or a link): the rest of the way up stays.
      }
      directory = path.dirname(directory);
    }
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

/**
 * Removes a file or folder tree. A write racing the removal can add a file to a folder just
 * emptied (ENOTEMPTY); Node's own retries remove it on the next pass.
 */
function removeTree(file: string): Promise<void> {
  return rm(file, { recursive: true, force: true, maxRetries: 8, retryDelay: 5 });
}

async function isDirectory(file: string): Promise<boolean> {
  try {
    return (await stat(file)).isDirectory();
  } catch {
    return false;
  }
}
