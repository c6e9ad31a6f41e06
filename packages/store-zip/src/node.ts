/**
 * Node.js helpers of `@z/store-zip`: zip archives in local files, read by positioned reads and
 * written as a stream. Kept out of the main entry point, which must load in browsers.
 * @packageDocumentation
 */
import { type FileHandle, open } from "node:fs/promises";
import { dirname } from "node:path";
import { NotFoundError, StoreError } from "@z/store-core";
import type { ByteSink, ByteSource } from "./byte-source.js";
import { ZipError } from "./errors.js";
import { type ZipCreateOptions, type ZipReadOptions, ZipStore } from "./zip-store.js";

async function openFile(path: string, flags: string): Promise<FileHandle> {
  try {
    return await open(path, flags);
  } catch (error) {
    // Filesystem errors become typed store errors that name the file.
    const code = (error as { code?: string }).code;
    if (code === "ENOENT" && flags === "r") throw new NotFoundError(path, "zip file");
    if (code === "ENOENT" || code === "ENOTDIR") {
      throw new NotFoundError(dirname(path), "folder", `create it before writing ${path} into it`);
    }
    if (code === "EEXIST") {
      throw new ZipError(
        `Cannot create ${path}: the file exists (pass overwrite: true to replace it)`,
      );
    }
    throw new StoreError(`Cannot open ${path}: ${(error as Error).message}`, { cause: error });
  }
}

/** Reads `length` bytes at `position`, fewer only at the end of the file. */
async function readAt(handle: FileHandle, position: number, length: number): Promise<Uint8Array> {
  const out = new Uint8Array(length);
  let done = 0;
  while (done < length) {
    const { bytesRead } = await handle.read(out, done, length - done, position + done);
    if (bytesRead === 0) break;
    done += bytesRead;
  }
  return done === length ? out : out.subarray(0, done);
}

/** Options of {@link fileSource}. */
export interface FileSourceOptions {
  /**
   * Milliseconds without a read after which the file is closed (it opens again on the next
   * read). Default 1000. A store opened from a location string has no owner to close it, and a
   * file handle left to the garbage collector makes Node warn (and, in later versions, fail).
   */
  idleMs?: number;
}

/**
 * A byte source over a local file, read with positioned reads: the file is opened on first use
 * and closed by `close`, or once it has been idle for a while (see {@link FileSourceOptions}).
 */
export function fileSource(
  path: string,
  options: FileSourceOptions = {},
): ByteSource & { close(): Promise<void> } {
  const idleMs = options.idleMs ?? 1000;
  let handle: Promise<FileHandle> | undefined;
  let active = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const openForReading = () => {
    const opened = openFile(path, "r");
    // A failed open is not kept: the next read tries again.
    opened.catch(() => {
      if (handle === opened) handle = undefined;
    });
    return opened;
  };
  /** Forgets the open file (the next read opens it again) and closes it. */
  const release = async () => {
    clearTimeout(timer);
    timer = undefined;
    const opened = handle;
    handle = undefined;
    if (opened) await (await opened).close();
  };
  const use = async <T>(read: (file: FileHandle) => Promise<T>): Promise<T> => {
    clearTimeout(timer);
    active++;
    const opened = (handle ??= openForReading());
    try {
      return await read(await opened);
    } finally {
      if (--active === 0 && handle === opened) {
        timer = setTimeout(() => release().catch(() => {}), idleMs);
        // An idle file must not keep the process alive.
        timer.unref?.();
      }
    }
  };
  return {
    size: () => use(async (file) => (await file.stat()).size),
    read: (offset, length) => use((file) => readAt(file, offset, length)),
    close: release,
  };
}

/** Options of {@link fileSink}. */
export interface FileSinkOptions {
  /** Replace an existing file (default false: creating over an existing file fails). */
  overwrite?: boolean;
  /** Flush the file to the disk when it is closed (default true). */
  fsync?: boolean;
}

/**
 * A new local file that a zip is written into, as a stream of appends, and that can be read
 * back at any time (before and after it is closed).
 */
export async function fileSink(
  path: string,
  options: FileSinkOptions = {},
): Promise<ByteSink & ByteSource & { close(): Promise<void> }> {
  let writing: FileHandle | undefined = await openFile(path, options.overwrite ? "w+" : "wx+");
  let reading: Promise<FileHandle> | undefined;
  let length = 0;
  const readable = () => {
    if (writing) return Promise.resolve(writing);
    reading ??= openFile(path, "r");
    return reading;
  };
  return {
    async write(bytes) {
      if (!writing) throw new ZipError(`${path} is closed`);
      let done = 0;
      while (done < bytes.length) {
        const { bytesWritten } = await writing.write(
          bytes,
          done,
          bytes.length - done,
          length + done,
        );
        done += bytesWritten;
      }
      length += bytes.length;
    },
    async size() {
      return length;
    },
    async read(offset, count) {
      return readAt(await readable(), offset, Math.max(0, Math.min(count, length - offset)));
    },
    async close() {
      const handle = writing;
      writing = undefined;
      if (handle) {
        if (options.fsync ?? true) await handle.sync();
        await handle.close();
      } else if (reading) {
        const open = reading;
        reading = undefined;
        await (await open).close();
      }
    },
  };
}

/**
 * Opens a local zip file as a read-only store.
 * @example
 * ```ts
 * const zip = await openZipFile("data.zarr.zip");
 * const root = await openGroup(zip);
 * ```
 * @category Stores
 */
export function openZipFile(path: string, options: ZipReadOptions = {}): Promise<ZipStore> {
  return ZipStore.open(fileSource(path), options);
}

/**
 * Creates a local zip file and a store writing into it; `close()` the store to complete the
 * archive. Fails if the file exists, unless `overwrite` is set.
 * @example
 * ```ts
 * const zip = await createZipFile("copy.zarr.zip");
 * await createArray(zip, { shape: [10], dtype: "uint8" });
 * await zip.close(); // writes the central directory
 * ```
 * @category Stores
 */
export async function createZipFile(
  path: string,
  options: ZipCreateOptions & FileSinkOptions = {},
): Promise<ZipStore> {
  return ZipStore.create(await fileSink(path, options), options);
}
