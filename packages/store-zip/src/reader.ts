import { crc32 } from "@z/compression/checksums";
import { type ByteRange, resolveRange } from "@z/store-core";
import { inflateSync } from "fflate";
import type { ByteSource } from "./byte-source.js";
import { ZipError } from "./errors.js";
import {
  checkLocalHeader,
  FLAG_ENCRYPTED,
  inferTailStart,
  LOCAL_HEADER_SIZE,
  MAX_TAIL,
  METHOD_DEFLATE,
  METHOD_STORED,
  parseCentralDirectory,
  parseEndRecords,
  type ZipEntry,
} from "./format.js";

/**
 * Reads of at most this many bytes from a local header to the end of the wanted data are made
 * as one request (header and data together); longer ones read the header and the data with two
 * requests in parallel.
 */
const ONE_READ_LIMIT = 64 * 1024;

/** Extra bytes read with a local header, in case its extra field is longer than guessed. */
const EXTRA_SLACK = 64;

/** Deflate cannot compress better than about 1032:1; a bigger claim is a lie (or a bomb). */
const MAX_DEFLATE_RATIO = 1032;

/** Reads exactly `length` bytes or fails with a ZipError naming what was being read. */
export async function readExact(
  source: ByteSource,
  offset: number,
  length: number,
  what: string,
  options?: { signal?: AbortSignal },
): Promise<Uint8Array> {
  const bytes = await source.read(offset, length, options);
  if (bytes.length !== length) {
    throw new ZipError(
      `Truncated zip archive: ${what} needs bytes ${offset}-${offset + length - 1}, the archive ends first`,
    );
  }
  return bytes;
}

/**
 * The central directory of an archive and random-access reads of its entries: the directory is
 * read once (one read of the archive's tail, which usually holds it whole, or two), then each
 * entry read costs one request (two, the first time, for a range far into a large entry). Data
 * offsets are cached once an entry's local header has been checked.
 */
export class ZipReader {
  /** How much longer local extra fields were than central ones, at the last entry checked. */
  #extraDelta = 0;

  #dataEnd: number;
  /**
   * Set while the archive's position was inferred from a suffix read rather than known from its
   * size: the archive's end as inferred. Data before the archive would make every offset wrong;
   * the first read that fails then checks the size and shifts the offsets (see #settle).
   */
  #inferredEnd: number | undefined;
  #settling: Promise<boolean> | undefined;

  private constructor(
    readonly source: ByteSource,
    /** Every entry, in central directory order. */
    readonly entries: readonly ZipEntry[],
    dataEnd: number,
    private readonly verifyChecksums: boolean,
    inferredEnd?: number,
  ) {
    this.#dataEnd = dataEnd;
    this.#inferredEnd = inferredEnd;
  }

  /** Where the central directory starts: entries' data must end before it. */
  get dataEnd(): number {
    return this.#dataEnd;
  }

  /**
   * A reader for entries being written to `source` (their data offsets are known, so no
   * directory is needed).
   */
  static forWritten(source: ByteSource, verifyChecksums = true): ZipReader {
    return new ZipReader(source, [], Number.POSITIVE_INFINITY, verifyChecksums);
  }

  /**
   * Reads an archive's central directory. A source that can read a suffix costs one read (the
   * archive's position is inferred from its end records, and checked against the directory);
   * otherwise the size comes first.
   */
  static async open(
    source: ByteSource,
    options: { signal?: AbortSignal } & { verifyChecksums?: boolean } = {},
  ): Promise<ZipReader> {
    if (source.readSuffix) {
      const tail = await source.readSuffix(MAX_TAIL, options);
      // A shorter answer is the whole archive; otherwise infer where the tail starts.
      const tailStart = tail.length < MAX_TAIL ? 0 : inferTailStart(tail);
      if (tailStart !== undefined) {
        try {
          const inferredEnd = tail.length < MAX_TAIL ? undefined : tailStart + tail.length;
          return await ZipReader.#fromTail(source, tail, tailStart, options, inferredEnd);
        } catch (error) {
          // An inference spoiled by data before the archive: start again from the size.
          if (!(error instanceof ZipError) || tail.length < MAX_TAIL) throw error;
        }
      }
    }
    const size = await source.size(options);
    if (!Number.isSafeInteger(size) || size < 0) throw new ZipError(`Invalid archive size ${size}`);
    const tailLength = Math.min(size, MAX_TAIL);
    const tailStart = size - tailLength;
    const tail = await readExact(source, tailStart, tailLength, "the end records", options);
    return ZipReader.#fromTail(source, tail, tailStart, options);
  }

  static async #fromTail(
    source: ByteSource,
    tail: Uint8Array,
    tailStart: number,
    options: { signal?: AbortSignal } & { verifyChecksums?: boolean },
    inferredEnd?: number,
  ): Promise<ZipReader> {
    const end = await parseEndRecords(tail, tailStart, (offset, length) =>
      readExact(source, offset, length, "the zip64 end record", options),
    );
    const cd =
      end.cdStart >= tailStart
        ? tail.subarray(end.cdStart - tailStart, end.cdStart - tailStart + end.cdSize)
        : await readExact(source, end.cdStart, end.cdSize, "the central directory", options);
    const entries = parseCentralDirectory(cd, end);
    return new ZipReader(
      source,
      entries,
      end.cdStart,
      options.verifyChecksums ?? true,
      inferredEnd,
    );
  }

  /**
   * Reads an entry, or a byte range of its uncompressed content (stored entries read only that
   * range; deflated ones are inflated whole, then cut). Whole reads are checked against the
   * entry's CRC-32 unless `verifyChecksums` was false.
   * @throws ZipError for a corrupt entry, an unsupported method, or encryption
   */
  async read(
    entry: ZipEntry,
    range: ByteRange | undefined,
    options?: { signal?: AbortSignal },
  ): Promise<Uint8Array> {
    if (entry.flags & FLAG_ENCRYPTED)
      throw new ZipError(
        `${JSON.stringify(entry.name)} is encrypted; encrypted entries are not supported`,
      );
    if (entry.method === METHOD_STORED) {
      if (entry.compressedSize !== entry.size) {
        throw new ZipError(
          `Corrupt zip archive: stored entry ${JSON.stringify(entry.name)} has a compressed size ${entry.compressedSize} and a size ${entry.size}`,
        );
      }
      const [start, end] = range ? resolveRange(range, entry.size) : [0, entry.size];
      const bytes = await this.#readData(entry, start, end, options);
      if (range === undefined || (start === 0 && end === entry.size)) this.#verify(entry, bytes);
      return bytes;
    }
    if (entry.method === METHOD_DEFLATE) {
      if (entry.size > entry.compressedSize * MAX_DEFLATE_RATIO + 1024) {
        throw new ZipError(
          `Corrupt zip archive: ${JSON.stringify(entry.name)} claims ${entry.size} bytes from ${entry.compressedSize} deflated bytes`,
        );
      }
      const compressed = await this.#readData(entry, 0, entry.compressedSize, options);
      const inflated = inflate(compressed, entry);
      this.#verify(entry, inflated);
      if (range === undefined) return inflated;
      const [start, end] = resolveRange(range, entry.size);
      return inflated.subarray(start, end);
    }
    throw new ZipError(
      `${JSON.stringify(entry.name)} uses compression method ${entry.method}; only stored (0) and deflate (8) entries can be read`,
    );
  }

  #verify(entry: ZipEntry, bytes: Uint8Array): void {
    if (this.verifyChecksums && crc32(bytes) !== entry.crc32) {
      throw new ZipError(
        `Corrupt zip archive: the CRC-32 of ${JSON.stringify(entry.name)} does not match its content`,
      );
    }
  }

  /** Bytes `[start, end)` of an entry's (stored or compressed) data. */
  async #readData(
    entry: ZipEntry,
    start: number,
    end: number,
    options?: { signal?: AbortSignal },
  ): Promise<Uint8Array> {
    try {
      return await this.#readDataOnce(entry, start, end, options);
    } catch (error) {
      if (!(error instanceof ZipError) || !(await this.#settle(options))) throw error;
      return this.#readDataOnce(entry, start, end, options);
    }
  }

  /**
   * After a failed read of an archive whose position was inferred: asks for the size, and when
   * data precedes the archive, shifts every offset by its length. Resolves to whether anything
   * moved (so the read is worth retrying).
   */
  #settle(options?: { signal?: AbortSignal }): Promise<boolean> {
    if (this.#inferredEnd === undefined) return this.#settling ?? Promise.resolve(false);
    const inferredEnd = this.#inferredEnd;
    this.#inferredEnd = undefined;
    this.#settling = this.source.size(options).then((size) => {
      const shift = size - inferredEnd;
      if (shift <= 0) return false;
      for (const entry of this.entries) {
        entry.localHeaderOffset += shift;
        entry.dataOffset = undefined;
      }
      this.#dataEnd += shift;
      return true;
    });
    return this.#settling;
  }

  async #readDataOnce(
    entry: ZipEntry,
    start: number,
    end: number,
    options?: { signal?: AbortSignal },
  ): Promise<Uint8Array> {
    const header = entry.localHeaderOffset;
    if (header + LOCAL_HEADER_SIZE > this.#dataEnd) {
      throw new ZipError(
        `Corrupt zip archive: the local header of ${JSON.stringify(entry.name)} (offset ${header}) lies past the entries' end (${this.#dataEnd})`,
      );
    }
    if (entry.dataOffset !== undefined) {
      if (end <= start) return new Uint8Array(0);
      return readExact(
        this.source,
        entry.dataOffset + start,
        end - start,
        `entry ${JSON.stringify(entry.name)}`,
        options,
      );
    }
    // The local extra field has the central one's length, or differs from it by what the
    // archive's earlier entries showed (Info-ZIP writes longer timestamps locally).
    const minimum = LOCAL_HEADER_SIZE + entry.nameBytes.length;
    const guess = Math.max(minimum, minimum + entry.centralExtraLength + this.#extraDelta);
    if (guess + end <= ONE_READ_LIMIT) {
      const span = Math.min(guess + end + EXTRA_SLACK, this.#dataEnd - header);
      const bytes = await readExact(
        this.source,
        header,
        span,
        `entry ${JSON.stringify(entry.name)}`,
        options,
      );
      const length = await this.#locate(entry, bytes, options);
      if (length + end <= bytes.length) return bytes.subarray(length + start, length + end);
      return readExact(
        this.source,
        header + length + start,
        end - start,
        `entry ${JSON.stringify(entry.name)}`,
        options,
      );
    }
    const speculative =
      end > start && header + guess + end <= this.#dataEnd
        ? this.source.read(header + guess + start, end - start, options).catch(() => undefined)
        : Promise.resolve(new Uint8Array(0));
    const headerBytes = await readExact(
      this.source,
      header,
      Math.min(guess, this.#dataEnd - header),
      `the local header of ${JSON.stringify(entry.name)}`,
      options,
    );
    const length = await this.#locate(entry, headerBytes, options);
    const data = await speculative;
    if (length === guess && data !== undefined && data.length === end - start) return data;
    if (end <= start) return new Uint8Array(0);
    return readExact(
      this.source,
      header + length + start,
      end - start,
      `entry ${JSON.stringify(entry.name)}`,
      options,
    );
  }

  /** Checks the local header (reading more of it if needed) and caches the data offset. */
  async #locate(
    entry: ZipEntry,
    bytes: Uint8Array,
    options?: { signal?: AbortSignal },
  ): Promise<number> {
    let checked = checkLocalHeader(bytes, entry);
    if ("needed" in checked) {
      if (entry.localHeaderOffset + checked.needed > this.#dataEnd) {
        throw new ZipError(
          `Corrupt zip archive: the local header of ${JSON.stringify(entry.name)} runs past the entries' end`,
        );
      }
      const more = await readExact(
        this.source,
        entry.localHeaderOffset,
        checked.needed,
        `the local header of ${JSON.stringify(entry.name)}`,
        options,
      );
      checked = checkLocalHeader(more, entry);
      if ("needed" in checked)
        throw new ZipError(
          `Corrupt zip archive: unreadable local header of ${JSON.stringify(entry.name)}`,
        );
    }
    this.#extraDelta =
      checked.length - (LOCAL_HEADER_SIZE + entry.nameBytes.length + entry.centralExtraLength);
    const dataOffset = entry.localHeaderOffset + checked.length;
    if (dataOffset + entry.compressedSize > this.#dataEnd) {
      throw new ZipError(
        `Corrupt zip archive: the data of ${JSON.stringify(entry.name)} (${entry.compressedSize} bytes at ${dataOffset}) runs past the entries' end (${this.#dataEnd})`,
      );
    }
    entry.dataOffset = dataOffset;
    return checked.length;
  }
}

/** Inflates a deflated entry into exactly its declared size, never more. */
function inflate(compressed: Uint8Array, entry: ZipEntry): Uint8Array {
  let out: Uint8Array;
  try {
    out = new Uint8Array(entry.size);
  } catch {
    throw new ZipError(
      `${JSON.stringify(entry.name)} is too large to inflate in memory (${entry.size} bytes)`,
    );
  }
  if (entry.size === 0) return out;
  let result: Uint8Array;
  try {
    // With an output buffer given, fflate writes into it and never grows it.
    result = inflateSync(compressed, { out });
  } catch (error) {
    throw new ZipError(
      `Corrupt zip archive: ${JSON.stringify(entry.name)} does not inflate (${(error as Error).message})`,
    );
  }
  if (result.length !== entry.size) {
    throw new ZipError(
      `Corrupt zip archive: ${JSON.stringify(entry.name)} inflates to ${result.length} bytes, the directory says ${entry.size}`,
    );
  }
  return result;
}
