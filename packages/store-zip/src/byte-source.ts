import { NotFoundError, type Readable } from "@z/store-core";
import { ZipError } from "./errors.js";

/**
 * Random access to the bytes of an archive: where it lives (a local file, a URL, memory) is the
 * source's business. A zip is read through `size` and positioned `read`s only, so an archive
 * of any size costs the bytes read, never a copy of the whole.
 */
export interface ByteSource {
  /** The size of the archive in bytes. */
  size(options?: { signal?: AbortSignal }): Promise<number>;
  /**
   * Reads `length` bytes at `offset`; fewer only when the source ends first (the reader treats
   * that as a truncated archive). The result belongs to the caller.
   */
  read(offset: number, length: number, options?: { signal?: AbortSignal }): Promise<Uint8Array>;
  /**
   * Reads the last `length` bytes (all of them when the source is shorter), for sources where
   * that saves asking for the size first (one HTTP request instead of two); optional.
   */
  readSuffix?(length: number, options?: { signal?: AbortSignal }): Promise<Uint8Array>;
  /** Releases what the source holds open (file handles); optional. */
  close?(): Promise<void>;
}

/** Where written archive bytes go: appended in order. */
export interface ByteSink {
  /** Appends bytes; the buffer may be reused by the caller once the promise resolves. */
  write(bytes: Uint8Array): Promise<void>;
  /** Flushes and releases the sink once the archive is complete; optional. */
  close?(): Promise<void>;
}

/** A source over bytes in memory (an archive fetched whole, or built in a test). */
export function bytesSource(bytes: Uint8Array): ByteSource {
  return {
    size: async () => bytes.length,
    read: async (offset, length) => bytes.slice(offset, offset + length),
  };
}

/**
 * A growable archive in memory that is both a sink and a source: write an archive into it with
 * a {@link ZipWriter} or `ZipStore.create`, then take {@link MemoryArchive.bytes}.
 */
export class MemoryArchive implements ByteSink, ByteSource {
  #buffer = new Uint8Array(1024);
  #length = 0;

  async write(bytes: Uint8Array): Promise<void> {
    const needed = this.#length + bytes.length;
    if (needed > this.#buffer.length) {
      const grown = new Uint8Array(Math.max(needed, this.#buffer.length * 2));
      grown.set(this.#buffer.subarray(0, this.#length));
      this.#buffer = grown;
    }
    this.#buffer.set(bytes, this.#length);
    this.#length = needed;
  }

  async size(): Promise<number> {
    return this.#length;
  }

  async read(offset: number, length: number): Promise<Uint8Array> {
    return this.#buffer.slice(
      Math.min(offset, this.#length),
      Math.min(offset + length, this.#length),
    );
  }

  /** The archive's bytes so far (a view: copy it before writing more). */
  bytes(): Uint8Array {
    return this.#buffer.subarray(0, this.#length);
  }
}

/**
 * A source over one value of a store, read by byte ranges: an archive behind an `HttpStore`
 * (`storeSource(new HttpStore("https://host/dir/"), "data.zarr.zip")`), or in any other store.
 * Opening an archive reads its tail with one suffix range; where the size is needed after all
 * (an archive with data before it), it comes from the store's `getSize(key)` when it has one
 * (HttpStore: a HEAD request), otherwise the value is read whole once and served from memory.
 */
export function storeSource(store: Readable, key: string): ByteSource {
  // The key is passed on unchanged: the store checks it (once) on the first read.
  let whole: Promise<Uint8Array> | undefined;
  const readWhole = (signal?: AbortSignal) => {
    whole ??= store.get(key, { signal }).then((bytes) => {
      if (bytes === undefined) throw new NotFoundError(key, "archive");
      return bytes;
    });
    return whole;
  };
  return {
    async size(options) {
      if (!store.getSize) return (await readWhole(options?.signal)).length;
      const size = await store.getSize(key, options);
      if (size === undefined) throw new NotFoundError(key, "archive");
      return size;
    },
    async readSuffix(length, options) {
      if (whole) return (await whole).slice(-length);
      const bytes = await store.get(key, { range: { suffix: length }, signal: options?.signal });
      if (bytes === undefined) throw new NotFoundError(key, "archive");
      return bytes;
    },
    async read(offset, length, options) {
      if (whole) return (await whole).slice(offset, offset + length);
      if (length === 0) return new Uint8Array(0);
      const bytes = await store.get(key, { range: { offset, length }, signal: options?.signal });
      if (bytes === undefined)
        throw new ZipError(`The archive ${JSON.stringify(key)} disappeared while it was read`);
      return bytes;
    },
  };
}
