import { type FileHandle, link, open, rename, unlink } from "node:fs/promises";
import * as path from "node:path";
import { AbortError, throwIfAborted } from "@z/store-core";
import { errorCode } from "./fs-errors.js";
import { tempName } from "./paths.js";

/** How {@link writeAtomic} writes. */
export interface AtomicWriteOptions {
  /** Flush the temporary file to the disk before it replaces the target. */
  fsync: boolean;
  /** Write only if the target does not exist (resolves to false if it does). */
  exclusive: boolean;
  /** Abort the write; the target is left as it was. */
  signal?: AbortSignal;
  /**
   * The folder the file goes in, or undefined when it is missing; with `create`, a missing
   * folder is created first. It throws to refuse a folder (one outside the store's root, say).
   */
  resolveDirectory(directory: string, create: boolean): Promise<WriteFolder | undefined>;
}

/** Where {@link writeAtomic} writes. */
export interface WriteFolder {
  /** The folder's path: its real path, or a path kept from an earlier write in it. */
  path: string;
  /**
   * Checks where a file just opened in the folder really is, before a byte is written to it;
   * throws to refuse it (the temporary file is then removed). For a kept path, which may have
   * been swapped for a link since it was resolved.
   */
  checkOpened?: (handle: FileHandle) => Promise<void>;
}

/**
 * A concurrent delete may prune the directory a write is about to use; the write then creates
 * it again. Bounded, so a directory that keeps vanishing ends in an error, not a loop.
 */
const ATTEMPTS = 8;

/**
 * Writes `value` to `file` so that readers, and the file after a crash, only ever see the old
 * value or the whole new one: the bytes go to a uniquely named temporary file in the same
 * directory, are flushed (with `fsync`), and the file is renamed over the target, which
 * replaces it in one step. With `exclusive`, a hard link stands in for the rename: it fails if
 * the target exists, so exactly one of several racing writers wins. The folder is resolved
 * (and checked) by `options.resolveDirectory`, and the write goes to its real path.
 * @returns whether the value was written (false only with `exclusive`, when the file existed)
 */
export async function writeAtomic(
  file: string,
  value: Uint8Array,
  options: AtomicWriteOptions,
): Promise<boolean> {
  const directory = path.dirname(file);
  const name = path.basename(file);
  let createDirectory = false;
  for (let attempt = 1; ; attempt++) {
    throwIfAborted(options.signal);
    try {
      // mkdir itself can meet ENOENT when a delete prunes a parent it just made, and a kept
      // folder may have been pruned since it was kept: both retry, creating the folder.
      const folder = await options.resolveDirectory(directory, createDirectory);
      if (folder === undefined) throw missingFolder(directory);
      return await writeOnce(folder, path.join(folder.path, name), value, options);
    } catch (error) {
      if (options.signal?.aborted) throw new AbortError(options.signal.reason);
      if (errorCode(error) !== "ENOENT" || attempt === ATTEMPTS) throw error;
      createDirectory = true;
    }
  }
}

function missingFolder(directory: string): Error {
  return Object.assign(new Error(`ENOENT: the folder ${directory} is missing`), { code: "ENOENT" });
}

/**
 * Writes through a temporary file and a rename even when nothing else writes the key: a
 * reader (in this process or another) that opens the file while it is written would see a
 * partial value, and POSIX has no way to publish a file's bytes at once other than renaming a
 * complete file over the old one (Linux's `O_TMPFILE` + `linkat` cannot replace a file, and
 * Node offers neither). So a whole write costs an open, a write, a close and a rename; the lock
 * file, the version check and their reads are only for conditional writes.
 */
async function writeOnce(
  folder: WriteFolder,
  file: string,
  value: Uint8Array,
  options: AtomicWriteOptions,
): Promise<boolean> {
  const temp = path.join(folder.path, tempName());
  // "wx": a fresh file, never an existing one (nor one a symlink at that name points to).
  const handle = await open(temp, "wx");
  let consumed = false;
  try {
    try {
      await folder.checkOpened?.(handle);
      await handle.writeFile(value, { signal: options.signal });
      if (options.fsync) await handle.sync();
    } finally {
      await handle.close();
    }
    throwIfAborted(options.signal);
    if (options.exclusive) return await linkIfAbsent(temp, file, value, options.fsync);
    await replace(temp, file);
    consumed = true;
    return true;
  } finally {
    if (!consumed) await unlink(temp).catch(() => {});
  }
}

/** Codes of file systems without hard links (FAT, some network and FUSE file systems). */
const NO_HARD_LINKS = new Set(["EPERM", "ENOTSUP", "EOPNOTSUPP", "ENOSYS", "EXDEV"]);

async function linkIfAbsent(
  temp: string,
  file: string,
  value: Uint8Array,
  fsync: boolean,
): Promise<boolean> {
  try {
    await link(temp, file);
    return true;
  } catch (error) {
    const code = errorCode(error);
    if (code === "EEXIST") return false;
    if (code === undefined || !NO_HARD_LINKS.has(code)) throw error;
  }
  // Without hard links: still exclusive, but a reader may see the value while it is written.
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(file, "wx");
  } catch (error) {
    if (errorCode(error) === "EEXIST") return false;
    throw error;
  }
  try {
    await handle.writeFile(value);
    if (fsync) await handle.sync();
  } finally {
    await handle.close();
  }
  return true;
}

/**
 * Renames `temp` over `file`. On Windows the rename fails while another process has the
 * target open (a reader, a virus scanner); a few short retries ride that out.
 */
async function replace(temp: string, file: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await rename(temp, file);
      return;
    } catch (error) {
      const busy = ["EPERM", "EACCES", "EBUSY"].includes(errorCode(error) ?? "");
      if (process.platform !== "win32" || !busy || attempt === 5) throw error;
      await new Promise((resolve) => setTimeout(resolve, 10 * attempt));
    }
  }
}
