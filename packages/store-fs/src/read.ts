import { constants, type Stats } from "node:fs";
import type { FileHandle } from "node:fs/promises";
import { open } from "node:fs/promises";
import { type ByteRange, resolveRange, throwIfAborted, validateRange } from "@z/store-core";
import { FsError, isNoFile } from "./fs-errors.js";

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
 * Reads byte ranges of one file through a single handle, each with positioned reads of just
 * the bytes it needs (suffix ranges resolve against the file's size). `undefined` range means
 * the whole file. Resolves to `undefined` when there is no file at `file` (or a directory).
 * @param key the store key, for error messages
 * @throws FsError when `file` is a FIFO, socket or device: only regular files hold values
 */
export async function readFileRanges(
  file: string,
  ranges: readonly (ByteRange | undefined)[],
  signal?: AbortSignal,
  key = file,
): Promise<Uint8Array[] | undefined> {
  for (const range of ranges) if (range !== undefined) validateRange(range);
  throwIfAborted(signal);
  let handle: FileHandle;
  try {
    handle = await open(file, READ_FLAGS);
  } catch (error) {
    if (isNoFile(error)) return undefined;
    throw error;
  }
  try {
    const stats = await handle.stat();
    // Opening a directory succeeds on POSIX systems; reading it is not a value.
    if (stats.isDirectory()) return undefined;
    if (!stats.isFile()) {
      throw new FsError(
        key,
        file,
        "read",
        `${kindOf(stats)} is not a value; only regular files are read`,
      );
    }
    const parts: Uint8Array[] = [];
    for (const range of ranges) {
      throwIfAborted(signal);
      const [start, end] = range === undefined ? [0, stats.size] : resolveRange(range, stats.size);
      parts.push(await readAt(handle, start, end - start, signal));
    }
    return parts;
  } catch (error) {
    // Reading a directory through a handle fails with EISDIR on some systems.
    if (isNoFile(error)) return undefined;
    throw error;
  } finally {
    await handle.close();
  }
}

/**
 * Reads `length` bytes at `position`. A file is replaced by rename, never rewritten in place,
 * so the open handle's size holds; if something else truncated it, the bytes read are returned.
 */
async function readAt(
  handle: FileHandle,
  position: number,
  length: number,
  signal: AbortSignal | undefined,
): Promise<Uint8Array> {
  // Not zero-filled first (the read overwrites it), and never a slice of Node's shared pool:
  // the caller owns it, and may transfer it to a worker.
  const buffer = uninitialized(length);
  let filled = 0;
  while (filled < length) {
    throwIfAborted(signal);
    const want = Math.min(length - filled, MAX_READ);
    const { bytesRead } = await handle.read(buffer, filled, want, position + filled);
    // A copy of what was read: the rest of the buffer was never written.
    if (bytesRead === 0) return buffer.slice(0, filled);
    filled += bytesRead;
  }
  return buffer;
}

/** A fresh, unpooled byte array of `length` bytes whose contents are not cleared first. */
function uninitialized(length: number): Uint8Array {
  if (length === 0) return new Uint8Array(0);
  const buffer = Buffer.allocUnsafeSlow(length);
  return new Uint8Array(buffer.buffer, buffer.byteOffset, length);
}
