import { constants } from "node:fs";
import { type FileHandle, open } from "node:fs/promises";
import { FsError, isNoFile } from "./fs-errors.js";
import { openedPath } from "./read.js";

/**
 * Opening a FIFO for writing waits for a reader: with `O_NONBLOCK` it fails at once instead
 * (and the fstat below refuses it). `O_NOFOLLOW`: the path given is real, so a link found at its
 * name now was put there since, and is refused rather than followed.
 */
const FLAGS = constants.O_WRONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOFOLLOW ?? 0);

/** Bytes to put at an offset of a file. */
export interface Patch {
  offset: number;
  value: Uint8Array;
}

/**
 * Writes `patches` into the regular file at `file` (a real path) in place, in order, through
 * one handle: no truncation, no temporary file, so the bytes outside the patches never change,
 * even when the process dies mid-write (the patched span may then hold part of the new bytes).
 * Writing past the end extends the file; the gap reads as zeros. Resolves to false when there
 * is no file (or a folder) at `file`.
 * @throws FsError for a FIFO, socket or device
 */
export async function writeInPlace(
  file: string,
  key: string,
  patches: readonly Patch[],
  options: { fsync: boolean; checkOpened?: (real: string) => Promise<void> },
): Promise<boolean> {
  let handle: FileHandle;
  try {
    handle = await open(file, FLAGS);
  } catch (error) {
    if (isNoFile(error)) return false;
    throw error;
  }
  try {
    const [stats, real] = await Promise.all([
      handle.stat(),
      options.checkOpened ? openedPath(handle) : undefined,
    ]);
    if (real !== undefined) await options.checkOpened?.(real);
    if (stats.isDirectory()) return false;
    if (!stats.isFile()) {
      throw new FsError(key, file, "write", "only regular files are values; this is not one");
    }
    for (const { offset, value } of patches) {
      let done = 0;
      while (done < value.length) {
        const { bytesWritten } = await handle.write(
          value,
          done,
          value.length - done,
          offset + done,
        );
        done += bytesWritten;
      }
    }
    if (options.fsync) await handle.sync();
    return true;
  } finally {
    await handle.close();
  }
}
