import { createHash } from "node:crypto";
import { stat } from "node:fs/promises";
import { ConflictError, type SetOptions, throwIfAborted, type VersionedValue } from "@z/store-core";
import { isNoFile } from "./fs-errors.js";
import { acquireLockFile, type LockFileOptions } from "./lock-file.js";
import { readFileRanges } from "./read.js";

/**
 * The version of a value: its size and a SHA-256 of its bytes. A content version, unlike the
 * file's inode and time stamps (an inode is reused as soon as a rename frees it, and time
 * stamps tick in milliseconds), can never come back for different bytes; when the same bytes
 * come back, a write based on them is still right.
 */
export function contentVersion(bytes: Uint8Array): string {
  return `${bytes.length}-${createHash("sha256").update(bytes).digest("base64url")}`;
}

/** Reads a whole file with its {@link contentVersion}; `undefined` when it does not exist. */
export async function readVersioned(
  file: string,
  signal?: AbortSignal,
): Promise<VersionedValue | undefined> {
  const value = (await readFileRanges(file, [undefined], { signal }))?.[0];
  return value === undefined ? undefined : { value, version: contentVersion(value) };
}

/**
 * Runs a write of `file` (a set, a create, a delete) under the file's lock, after checking
 * the write's `ifMatch` / `ifNoneMatch` against what the file holds. Every conditional write
 * of FsStore takes the lock, so no other conditional write can land between a check and the
 * write it guards, in this process or another. Writes without a condition take no lock: a
 * whole replacement needs none to be atomic (the rename is), and taking one would cost every
 * chunk write a file more. One that lands between a check and its write is replaced by that
 * write (see FsStore), which loses the blind write, never the conditional one: the update a
 * read-modify-write made is never lost, and one made after a whole write is made on it.
 *
 * @param lock how to take the lock; with `createDirectory` (writes that create the key) a
 *   missing folder is created
 * @returns what `write` returned, or `undefined` when the key's folder does not exist and
 *   `lock.createDirectory` is not given (nothing to delete; `ifMatch` then fails)
 * @throws ConflictError when the condition does not hold
 */
export async function writeLocked<T>(
  key: string,
  file: string,
  options: SetOptions | undefined,
  lock: LockFileOptions,
  write: () => Promise<T>,
): Promise<T | undefined> {
  throwIfAborted(options?.signal);
  const release = await acquireLockFile(file, { ...lock, signal: options?.signal });
  if (release === undefined) {
    if (options?.ifMatch !== undefined) throw new ConflictError(key, "the key no longer exists");
    return undefined;
  }
  try {
    await checkCondition(key, file, options);
    return await write();
  } finally {
    await release();
  }
}

async function checkCondition(
  key: string,
  file: string,
  options: SetOptions | undefined,
): Promise<void> {
  const { ifMatch, ifNoneMatch } = options ?? {};
  if (ifMatch === undefined) {
    if (ifNoneMatch === "*" && (await sizeOf(file)) !== undefined)
      throw new ConflictError(key, "the key exists (ifNoneMatch)");
    return;
  }
  // Read at once (no stat first): a read-modify-write's condition usually holds, and a read
  // tells whether the file exists too.
  const stored = await readVersioned(file, options?.signal);
  if (stored === undefined) throw new ConflictError(key, "the key no longer exists");
  if (ifNoneMatch === "*") throw new ConflictError(key, "the key exists (ifNoneMatch)");
  if (stored.version !== ifMatch) throw new ConflictError(key, "it was changed by another writer");
}

async function sizeOf(file: string): Promise<number | undefined> {
  try {
    const stats = await stat(file);
    return stats.isFile() ? stats.size : undefined;
  } catch (error) {
    if (isNoFile(error)) return undefined;
    throw error;
  }
}
