import { crc32 } from "@z/compression/checksums";
import { validateKey } from "@z/store-core";
import type { ByteSink } from "./byte-source.js";
import { ZipError } from "./errors.js";
import {
  CENTRAL_HEADER_SIZE,
  EOCD_SIZE,
  EOCD64_LOCATOR_SIZE,
  EOCD64_SIZE,
  LOCAL_HEADER_SIZE,
  METHOD_STORED,
  SIG_CENTRAL,
  SIG_EOCD,
  SIG_EOCD64,
  SIG_EOCD64_LOCATOR,
  SIG_LOCAL,
  U16_MAX,
  U32_MAX,
  ZIP64_EXTRA_ID,
  type ZipEntry,
} from "./format.js";
import { encodeName, UTF8_FLAG } from "./names.js";

/** Options of a {@link ZipWriter}. */
export interface ZipWriterOptions {
  /**
   * `"auto"` (default): zip64 records only where a size, an offset or the entry count needs
   * them. `"always"`: zip64 fields for every entry (for readers under test, or streaming).
   */
  zip64?: "auto" | "always";
  /** The modification time written for every entry (default: when the writer was made). */
  modified?: Date;
}

/** Version 2.0 (deflate, folders) and 4.5 (zip64), as "version needed to extract". */
const VERSION_20 = 20;
const VERSION_45 = 45;
/** "Made by" Unix (3), so extractors apply the permissions below. */
const MADE_BY_UNIX = 3 << 8;
/** A regular file, rw-r--r--, in the high half of the external attributes. */
const FILE_ATTRIBUTES = (0o100644 << 16) >>> 0;

function dosDateTime(date: Date): { time: number; date: number } {
  const year = Math.min(Math.max(date.getFullYear(), 1980), 2107);
  return {
    time: (date.getHours() << 11) | (date.getMinutes() << 5) | (date.getSeconds() >> 1),
    date: ((year - 1980) << 9) | ((date.getMonth() + 1) << 5) | date.getDate(),
  };
}

/** Little-endian field writer over a fresh buffer. */
class Fields {
  readonly bytes: Uint8Array;
  readonly #view: DataView;
  #at = 0;
  constructor(length: number) {
    this.bytes = new Uint8Array(length);
    this.#view = new DataView(this.bytes.buffer);
  }
  u16(value: number): this {
    this.#view.setUint16(this.#at, value, true);
    this.#at += 2;
    return this;
  }
  u32(value: number): this {
    this.#view.setUint32(this.#at, value >>> 0, true);
    this.#at += 4;
    return this;
  }
  u64(value: number): this {
    this.#view.setBigUint64(this.#at, BigInt(value), true);
    this.#at += 8;
    return this;
  }
  put(bytes: Uint8Array): this {
    this.bytes.set(bytes, this.#at);
    this.#at += bytes.length;
    return this;
  }
}

/** What the writer keeps per written entry, for the central directory. */
interface Written extends ZipEntry {
  utf8: boolean;
  zip64Local: boolean;
}

/**
 * Writes a zip archive to a sink as a stream: each `add` appends a local header and the value,
 * stored (uncompressed, so ranges of a shard stay readable in place), and `close` appends the
 * central directory. zip64 records are written where sizes, offsets or the entry count need
 * them. Writes are serialised in call order; offsets are known before the bytes land.
 *
 * Names are unique in the central directory: `add` of an existing name rejects unless
 * `{ replace: true }`, in which case the new value is appended and the directory points at it
 * (the old bytes stay in the file, unreferenced). `remove` drops a name from the directory the
 * same way. Readers that go by the central directory (all the usual ones) see one entry per
 * name; a tool that scans local headers front to back may see the replaced ones too.
 */
export class ZipWriter {
  readonly #sink: ByteSink;
  readonly #zip64: "auto" | "always";
  readonly #stamp: { time: number; date: number };
  /** Entries in the central directory, by name, in the order they were first written. */
  readonly #entries = new Map<string, Written>();
  /** Names with a write queued: they count as existing for `add` without `replace`. */
  readonly #reserved = new Map<string, number>();
  #offset = 0;
  #queue: Promise<void> = Promise.resolve();
  #failed: unknown;
  #closed = false;

  constructor(sink: ByteSink, options: ZipWriterOptions = {}) {
    this.#sink = sink;
    this.#zip64 = options.zip64 ?? "auto";
    this.#stamp = dosDateTime(options.modified ?? new Date());
  }

  /** Bytes written (or queued) so far. */
  get offset(): number {
    return this.#offset;
  }

  /** Whether {@link ZipWriter.close} was called. */
  get closed(): boolean {
    return this.#closed;
  }

  /** The entries in the central directory so far (written to the sink), by name. */
  get entries(): ReadonlyMap<string, ZipEntry> {
    return this.#entries;
  }

  /** Whether a name is in the directory or has a write queued. */
  has(name: string): boolean {
    return this.#entries.has(name) || this.#reserved.has(name);
  }

  #checkOpen(): void {
    if (this.#closed)
      throw new ZipError("The zip archive is closed: nothing more can be written to it");
    if (this.#failed !== undefined) {
      throw new ZipError(
        `An earlier write to the zip archive failed, so it cannot be completed: ${String(this.#failed)}`,
      );
    }
  }

  /**
   * Appends an entry holding `data`, stored. Resolves once its bytes reached the sink; `data`
   * must not change until then.
   * @param options.replace replace an existing entry of that name instead of rejecting
   */
  async add(name: string, data: Uint8Array, options: { replace?: boolean } = {}): Promise<void> {
    validateKey(name);
    this.#checkOpen();
    if (!options.replace && this.has(name)) {
      throw new ZipError(`The archive already has an entry ${JSON.stringify(name)}`);
    }
    const { bytes: nameBytes, utf8 } = encodeName(name);
    const size = data.length;
    const offset = this.#offset;
    const zip64Local = this.#zip64 === "always" || size >= U32_MAX;
    const extraLength = zip64Local ? 20 : 0;
    const crc = crc32(data);
    const header = new Fields(LOCAL_HEADER_SIZE + nameBytes.length + extraLength)
      .u32(SIG_LOCAL)
      .u16(zip64Local ? VERSION_45 : VERSION_20)
      .u16(utf8 ? UTF8_FLAG : 0)
      .u16(METHOD_STORED)
      .u16(this.#stamp.time)
      .u16(this.#stamp.date)
      .u32(crc)
      .u32(zip64Local ? U32_MAX : size)
      .u32(zip64Local ? U32_MAX : size)
      .u16(nameBytes.length)
      .u16(extraLength)
      .put(nameBytes);
    if (zip64Local) header.u16(ZIP64_EXTRA_ID).u16(16).u64(size).u64(size);
    const entry: Written = {
      name,
      nameBytes,
      flags: utf8 ? UTF8_FLAG : 0,
      method: METHOD_STORED,
      crc32: crc,
      compressedSize: size,
      size,
      localHeaderOffset: offset,
      centralExtraLength: 0,
      dataOffset: offset + header.bytes.length,
      utf8,
      zip64Local,
    };
    this.#offset += header.bytes.length + size;
    this.#reserved.set(name, (this.#reserved.get(name) ?? 0) + 1);
    await this.#enqueue(async () => {
      await this.#sink.write(header.bytes);
      await this.#sink.write(data);
      // Re-inserting moves a replaced name to the end, so the directory follows write order.
      this.#entries.delete(name);
      this.#entries.set(name, entry);
    }).finally(() => {
      const left = this.#reserved.get(name)! - 1;
      if (left === 0) this.#reserved.delete(name);
      else this.#reserved.set(name, left);
    });
  }

  /**
   * Drops names from the central directory (after the writes queued before this call); their
   * bytes stay in the file, unreferenced.
   * @returns how many entries were dropped
   */
  async remove(names: Iterable<string> | ((name: string) => boolean)): Promise<number> {
    this.#checkOpen();
    let dropped = 0;
    await this.#enqueue(async () => {
      const match =
        typeof names === "function"
          ? names
          : (
              (set) => (name: string) =>
                set.has(name)
            )(new Set(names));
      for (const name of [...this.#entries.keys()]) {
        if (match(name)) {
          this.#entries.delete(name);
          dropped++;
        }
      }
    });
    return dropped;
  }

  /**
   * Waits for the queued writes, then appends the central directory and the end records and
   * closes the sink. The archive is complete once this resolves.
   * @returns the archive's size in bytes
   */
  async close(): Promise<number> {
    this.#checkOpen();
    this.#closed = true;
    await this.#queue;
    if (this.#failed !== undefined)
      throw new ZipError(`The zip archive could not be completed: ${String(this.#failed)}`);
    const cdStart = this.#offset;
    const records = [...this.#entries.values()].map((entry) => this.#centralRecord(entry));
    const cdSize = records.reduce((n, r) => n + r.length, 0);
    const count = records.length;
    const zip64 =
      this.#zip64 === "always" || count >= U16_MAX || cdStart >= U32_MAX || cdSize >= U32_MAX;
    const tail: Uint8Array[] = [...records];
    if (zip64) {
      const eocd64At = cdStart + cdSize;
      tail.push(
        new Fields(EOCD64_SIZE)
          .u32(SIG_EOCD64)
          .u64(EOCD64_SIZE - 12)
          .u16(MADE_BY_UNIX | VERSION_45)
          .u16(VERSION_45)
          .u32(0)
          .u32(0)
          .u64(count)
          .u64(count)
          .u64(cdSize)
          .u64(cdStart).bytes,
        new Fields(EOCD64_LOCATOR_SIZE).u32(SIG_EOCD64_LOCATOR).u32(0).u64(eocd64At).u32(1).bytes,
      );
    }
    tail.push(
      new Fields(EOCD_SIZE)
        .u32(SIG_EOCD)
        .u16(0)
        .u16(0)
        .u16(zip64 ? U16_MAX : count)
        .u16(zip64 ? U16_MAX : count)
        .u32(zip64 ? U32_MAX : cdSize)
        .u32(zip64 ? U32_MAX : cdStart)
        .u16(0).bytes,
    );
    const size = tail.reduce((n, part) => n + part.length, 0);
    const block = new Uint8Array(size);
    let at = 0;
    for (const part of tail) {
      block.set(part, at);
      at += part.length;
    }
    await this.#sink.write(block);
    this.#offset += size;
    await this.#sink.close?.();
    return this.#offset;
  }

  #centralRecord(entry: Written): Uint8Array {
    const bigOffset = this.#zip64 === "always" || entry.localHeaderOffset >= U32_MAX;
    const bigSize = entry.zip64Local;
    const extraLength = bigOffset || bigSize ? 4 + (bigSize ? 16 : 0) + (bigOffset ? 8 : 0) : 0;
    const record = new Fields(CENTRAL_HEADER_SIZE + entry.nameBytes.length + extraLength)
      .u32(SIG_CENTRAL)
      .u16(MADE_BY_UNIX | (extraLength ? VERSION_45 : VERSION_20))
      .u16(extraLength ? VERSION_45 : VERSION_20)
      .u16(entry.flags)
      .u16(METHOD_STORED)
      .u16(this.#stamp.time)
      .u16(this.#stamp.date)
      .u32(entry.crc32)
      .u32(bigSize ? U32_MAX : entry.size)
      .u32(bigSize ? U32_MAX : entry.size)
      .u16(entry.nameBytes.length)
      .u16(extraLength)
      .u16(0)
      .u16(0)
      .u16(0)
      .u32(FILE_ATTRIBUTES)
      .u32(bigOffset ? U32_MAX : entry.localHeaderOffset)
      .put(entry.nameBytes);
    if (extraLength) {
      record.u16(ZIP64_EXTRA_ID).u16(extraLength - 4);
      if (bigSize) record.u64(entry.size).u64(entry.size);
      if (bigOffset) record.u64(entry.localHeaderOffset);
    }
    return record.bytes;
  }

  #enqueue(task: () => Promise<void>): Promise<void> {
    const run = this.#queue.then(() => {
      if (this.#failed !== undefined)
        throw new ZipError(`An earlier write to the zip archive failed: ${String(this.#failed)}`);
      return task();
    });
    // The queue itself never rejects, so one failure does not leave later tasks unhandled;
    // the failure is remembered, and every later write refuses to go on.
    this.#queue = run.catch((error) => {
      this.#failed ??= error;
    });
    return run;
  }
}
