import { constants, type Stats } from "node:fs";
import type { FileHandle } from "node:fs/promises";
import { open, readlink } from "node:fs/promises";
import { type ByteRange, resolveRange, throwIfAborted, validateRange } from "@z/store-core";
import { errorCode, FsError, isNoFile } from "./fs-errors.js";

/** Largest single read: Node refuses reads of 2 GiB or more in one call. */
const MAX_READ = 1 << 30;

/**
 * Opening a FIFO for reading waits for a writer, forever if none comes; with `O_NONBLOCK` the
 * open returns at once and `fstat` tells what was opened. It changes nothing for regular
 * files. (Windows has no FIFOs to open this way and no such flag.)
 */
const READ_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

/** What a special file is, for the error message. */
function kindOf(stats: Stats): string {
  if (stats.isFIFO()) return "a FIFO (named pipe)";
  if (stats.isSocket()) return "a socket";
  if (stats.isCharacterDevice()) return "a character device";
  if (stats.isBlockDevice()) return "a block device";
  return "not a regular file";
}

/**
 * Also refuses to follow a symlink at the file's own name (`ELOOP`): for callers that checked
 * the folder and must check a link at the name before following it. 0 where the platform has
 * no such flag (Windows), whose callers must not rely on it (see {@link canRefuseLinks}).
 */
const NO_FOLLOW = constants.O_NOFOLLOW ?? 0;

/** Whether opens can refuse a symlink at the file's name (`O_NOFOLLOW`). */
export const canRefuseLinks = NO_FOLLOW !== 0;

/** Whether an open failed because the name is a symlink and `noFollow` was asked. */
export function isLinkRefused(error: unknown): boolean {
  return canRefuseLinks && errorCode(error) === "ELOOP";
}

/** How a file is opened for a read. */
export interface ReadFileOptions {
  /** Abort the read. */
  signal?: AbortSignal;
  /** The store key, for error messages (default the path). */
  key?: string;
  /** Fail with `ELOOP` when the name is a symlink instead of following it. */
  noFollow?: boolean;
  /**
   * Called with the real path of the file just opened, where the platform tells it without a
   * path lookup (Linux: `/proc/self/fd`), before a byte is read; throw to refuse the file.
   */
  checkOpened?: (real: string) => Promise<void> | void;
}

/** Where Linux shows the path of an open file descriptor. */
const FD_LINKS = process.platform === "linux" ? "/proc/self/fd/" : undefined;

/**
 * Whether the platform can tell where an open file really is (Linux, `/proc/self/fd`), so a
 * store can check it after opening instead of resolving the path before. Containers without
 * `/proc` answer undefined in {@link openedPath}, and callers then check the usual way.
 */
export const canTellOpenedPaths = FD_LINKS !== undefined;

/** The real path of an open file, where the platform tells it; else undefined. */
export async function openedPath(handle: FileHandle): Promise<string | undefined> {
  if (FD_LINKS === undefined) return undefined;
  try {
    return await readlink(FD_LINKS + handle.fd);
  } catch {
    return undefined; // No /proc mounted (some containers): nothing to check against.
  }
}

/**
 * Where a file really is, told by the open file (Linux), without following a link at its name:
 * its real path, `null` when there is no file there, `undefined` when it cannot be told (no
 * `/proc`, a link at the name, a file that cannot be opened for reading, another platform).
 */
export async function realPathOfFile(file: string): Promise<string | null | undefined> {
  if (!canTellOpenedPaths || !canRefuseLinks) return undefined;
  let handle: FileHandle;
  try {
    handle = await open(file, READ_FLAGS | NO_FOLLOW);
  } catch (error) {
    return errorCode(error) === "ENOENT" || errorCode(error) === "ENOTDIR" ? null : undefined;
  }
  try {
    return await openedPath(handle);
  } finally {
    await handle.close();
  }
}

/**
 * Whether an opened file holds a value: true for a regular file, false for a directory (which
 * opens on POSIX systems, but is no value).
 * @throws FsError for a FIFO, socket or device: only regular files hold values
 */
function isValueFile(stats: Stats, file: string, options: ReadFileOptions): boolean {
  if (stats.isDirectory()) return false;
  if (stats.isFile()) return true;
  throw new FsError(
    options.key ?? file,
    file,
    "read",
    `${kindOf(stats)} is not a value; only regular files are read`,
  );
}

/**
 * Opens a file for reading and runs `use` with its handle (and its `fstat`, when `stats`
 * asks for it: then only regular files reach `use`); closes it after. Resolves to `undefined`
 * when there is no file at `file` (or a directory).
 * @throws FsError when `stats` is asked and `file` is a FIFO, socket or device
 */
async function withFile<T>(
  file: string,
  options: ReadFileOptions,
  stats: boolean,
  use: (handle: FileHandle, stats: Stats | undefined) => Promise<T | undefined>,
): Promise<T | undefined> {
  throwIfAborted(options.signal);
  let handle: FileHandle;
  try {
    handle = await open(file, options.noFollow ? READ_FLAGS | NO_FOLLOW : READ_FLAGS);
  } catch (error) {
    if (isNoFile(error)) return undefined;
    throw error;
  }
  try {
    // Both at once: one wait instead of two.
    const [found, real] = await Promise.all([
      stats ? handle.stat() : undefined,
      options.checkOpened ? openedPath(handle) : undefined,
    ]);
    if (real !== undefined) await options.checkOpened?.(real);
    if (found !== undefined && !isValueFile(found, file, options)) return undefined;
    return await use(handle, found);
  } catch (error) {
    // Reading a directory through a handle fails with EISDIR on some systems.
    if (isNoFile(error)) return undefined;
    throw error;
  } finally {
    await handle.close();
  }
}

/**
 * Reads byte ranges of one file through a single handle, each with positioned reads of just
 * the bytes it needs (suffix ranges resolve against the file's size). `undefined` range means
 * the whole file. Resolves to `undefined` when there is no file at `file` (or a directory).
 * @throws FsError when `file` is a FIFO, socket or device: only regular files hold values
 */
export async function readFileRanges(
  file: string,
  ranges: readonly (ByteRange | undefined)[],
  options: ReadFileOptions = {},
): Promise<Uint8Array[] | undefined> {
  for (const range of ranges) if (range !== undefined) validateRange(range);
  const { signal } = options;
  if (ranges.length > 0 && ranges.every(isSmallBounded)) {
    // `{offset, length}` ranges (a shard's inner chunks) need no size: read at once, and ask
    // `fstat` what the file is only when a read comes back short (past the end, or no file).
    return withFile(file, options, false, async (handle) => {
      const parts: Uint8Array[] = [];
      let short = false;
      for (const { offset, length } of ranges as { offset: number; length: number }[]) {
        throwIfAborted(signal);
        const buffer = uninitialized(length);
        const filled = await readAt(handle, buffer, offset, signal).catch(async (error) => {
          if (isNoFile(error) || isValueFile(await handle.stat(), file, options)) throw error;
          return -1; // a directory
        });
        if (filled < 0) return undefined;
        short ||= filled < length || length === 0;
        parts.push(filled === length ? buffer : buffer.slice(0, filled));
      }
      if (short && !isValueFile(await handle.stat(), file, options)) return undefined;
      return parts;
    });
  }
  return withFile(file, options, true, async (handle, stats) => {
    const size = (stats as Stats).size;
    const parts: Uint8Array[] = [];
    for (const range of ranges) {
      throwIfAborted(signal);
      const [start, end] = range === undefined ? [0, size] : resolveRange(range, size);
      const buffer = uninitialized(end - start);
      const filled = await readAt(handle, buffer, start, signal);
      // A copy of what was read: the rest of the buffer was never written.
      parts.push(filled === buffer.length ? buffer : buffer.slice(0, filled));
    }
    return parts;
  });
}

/**
 * Bounded ranges up to this length are read without asking the file's size first: a longer one
 * (a caller's mistake, or hostile input) is clipped to the size before anything is allocated.
 */
const MAX_UNSIZED_RANGE = 64 * 1024 * 1024;

function isSmallBounded(range: ByteRange | undefined): boolean {
  return range !== undefined && "length" in range && range.length <= MAX_UNSIZED_RANGE;
}

/**
 * Reads a whole file into `target` when it fits, with no allocation: resolves to the file's
 * size, the bytes in `target[0, size)`; when the file is larger than `target`, the size tells
 * how large it is (and `target` holds its first bytes). `undefined` when there is no file.
 *
 * One open, one read and one close: the read asks for one byte more than `target` holds (into
 * a spare byte), so its count tells at once whether the file fits, and no `fstat` is needed
 * for its size. A short read of a regular file ends at its end (FsStore replaces files by
 * rename, never truncates them). Only when the read finds nothing, fails, or finds more than
 * fits does an `fstat` tell what the file is (a FIFO or device is an FsError) and how large.
 * A FIFO that another process is writing into at that moment is read like a file: what it
 * gives is what that process wrote, as a file's bytes would be.
 * @throws FsError when `file` is a FIFO, socket or device
 */
export async function readFileInto(
  file: string,
  target: Uint8Array,
  options: ReadFileOptions = {},
): Promise<number | undefined> {
  const { signal } = options;
  // One read cannot be trusted to fill more than MAX_READ bytes: the long way, with fstat.
  if (target.length >= MAX_READ) {
    return withFile(file, options, true, async (handle, stats) => {
      const { size } = stats as Stats;
      return size > target.length ? size : readAt(handle, target.subarray(0, size), 0, signal);
    });
  }
  return withFile(file, options, false, async (handle) => {
    throwIfAborted(signal);
    let read = 0;
    try {
      ({ bytesRead: read } = await handle.readv([target, new Uint8Array(1)], 0));
    } catch (error) {
      if (isNoFile(error)) throw error;
      // EAGAIN from a FIFO with a writer but no data, say: the fstat below tells what it is.
      if (isValueFile(await handle.stat(), file, options)) throw error;
      return undefined;
    }
    if (read > 0 && read <= target.length) return read;
    const stats = await handle.stat();
    if (!isValueFile(stats, file, options)) return undefined;
    if (stats.size > target.length) return stats.size;
    return stats.size === read ? read : readAt(handle, target.subarray(0, stats.size), 0, signal);
  });
}

/**
 * Fills `buffer` from `position` on; resolves to the bytes read. A file is replaced by rename,
 * never rewritten in place, so the open handle's size holds; if something else truncated it,
 * fewer bytes are read.
 */
async function readAt(
  handle: FileHandle,
  buffer: Uint8Array,
  position: number,
  signal: AbortSignal | undefined,
): Promise<number> {
  const length = buffer.length;
  let filled = 0;
  while (filled < length) {
    throwIfAborted(signal);
    const want = Math.min(length - filled, MAX_READ);
    const { bytesRead } = await handle.read(buffer, filled, want, position + filled);
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  return filled;
}

/**
 * A fresh, unpooled byte array of `length` bytes whose contents are not cleared first (the
 * read overwrites it), and never a slice of Node's shared pool: the caller owns it, and may
 * transfer it to a worker.
 */
function uninitialized(length: number): Uint8Array {
  if (length === 0) return new Uint8Array(0);
  const buffer = Buffer.allocUnsafeSlow(length);
  return new Uint8Array(buffer.buffer, buffer.byteOffset, length);
}
