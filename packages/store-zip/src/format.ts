import { ZipError } from "./errors.js";
import { decodeName } from "./names.js";

/*
 * The zip format (PKWARE APPNOTE 6.3): entries as [local header, data] one after the other,
 * then the central directory (one record per entry, pointing at its local header), then the
 * end-of-central-directory record (EOCD), preceded for zip64 archives by a zip64 EOCD record
 * and its locator. All numbers are little-endian.
 */
export const SIG_LOCAL = 0x04034b50;
export const SIG_CENTRAL = 0x02014b50;
export const SIG_EOCD = 0x06054b50;
export const SIG_EOCD64 = 0x06064b50;
export const SIG_EOCD64_LOCATOR = 0x07064b50;
export const LOCAL_HEADER_SIZE = 30;
export const CENTRAL_HEADER_SIZE = 46;
export const EOCD_SIZE = 22;
export const EOCD64_SIZE = 56;
export const EOCD64_LOCATOR_SIZE = 20;
export const ZIP64_EXTRA_ID = 0x0001;
export const U16_MAX = 0xffff;
export const U32_MAX = 0xffffffff;
/** The longest tail that can hold the end records: EOCD, its longest comment, the locator. */
export const MAX_TAIL = EOCD_SIZE + U16_MAX + EOCD64_LOCATOR_SIZE;

export const METHOD_STORED = 0;
export const METHOD_DEFLATE = 8;
/** Flag bit 0: the entry is encrypted. */
export const FLAG_ENCRYPTED = 0x0001;
/** Flag bit 3: crc and sizes follow the data (the local header holds zeros). */
export const FLAG_DATA_DESCRIPTOR = 0x0008;

/** One entry of the central directory. */
export interface ZipEntry {
  /** The decoded name (`data.zarr/a/zarr.json`); folders end in `/`. */
  name: string;
  /** The name's bytes as stored, to compare with the local header. */
  nameBytes: Uint8Array;
  flags: number;
  /** 0 stored, 8 deflate. */
  method: number;
  crc32: number;
  compressedSize: number;
  /** Uncompressed size. */
  size: number;
  /** Where the entry's local header starts in the source. */
  localHeaderOffset: number;
  /** Length of the extra field in the central record: a good guess for the local one. */
  centralExtraLength: number;
  /** Where the data starts, once a read has seen the local header. */
  dataOffset?: number;
}

/** Where the central directory is, as the end records say. */
export interface EndRecords {
  /** Entry count. */
  entries: number;
  /** Position of the central directory in the source. */
  cdStart: number;
  cdSize: number;
  /** Bytes before the archive proper (a self-extractor stub), added to every offset. */
  shift: number;
  zip64: boolean;
}

function view(bytes: Uint8Array): DataView {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

function u64(dv: DataView, at: number, what: string): number {
  const value = dv.getBigUint64(at, true);
  if (value > BigInt(Number.MAX_SAFE_INTEGER))
    throw new ZipError(`Corrupt zip archive: ${what} ${value} is out of range`);
  return Number(value);
}

/** Finds the EOCD in the archive's tail: the last signature whose comment fits in the tail. */
export function findEocd(tail: Uint8Array): number {
  const dv = view(tail);
  for (let at = tail.length - EOCD_SIZE; at >= 0; at--) {
    if (tail[at] !== 0x50 || dv.getUint32(at, true) !== SIG_EOCD) continue;
    if (at + EOCD_SIZE + dv.getUint16(at + 20, true) <= tail.length) return at;
  }
  return -1;
}

/**
 * Where a tail read by suffix starts in the archive, inferred from its end records (the central
 * directory ends where they begin), for sources that cannot tell their size without another
 * request. Wrong when data precedes the archive: the directory's signatures then do not match
 * and the caller falls back to the size.
 */
export function inferTailStart(tail: Uint8Array): number | undefined {
  const at = findEocd(tail);
  if (at < 0) return undefined;
  const dv = view(tail);
  const locatorAt = at - EOCD64_LOCATOR_SIZE;
  let start: number;
  if (locatorAt >= 0 && dv.getUint32(locatorAt, true) === SIG_EOCD64_LOCATOR) {
    const recordAt = locatorAt - EOCD64_SIZE;
    const recordOffset = dv.getBigUint64(locatorAt + 8, true);
    if (recordAt < 0 || recordOffset > BigInt(Number.MAX_SAFE_INTEGER)) return undefined;
    start = Number(recordOffset) - recordAt;
  } else {
    start = dv.getUint32(at + 16, true) + dv.getUint32(at + 12, true) - at;
  }
  return start >= 0 ? start : undefined;
}

/**
 * Reads the end records from the tail of the archive (`tailStart` is the tail's position in
 * the source); `readMore` fetches a zip64 EOCD record that lies outside the tail.
 */
export async function parseEndRecords(
  tail: Uint8Array,
  tailStart: number,
  readMore: (offset: number, length: number) => Promise<Uint8Array>,
): Promise<EndRecords> {
  const at = findEocd(tail);
  if (at < 0) {
    throw new ZipError(
      "Not a zip archive (or a truncated one): no end-of-central-directory record at its end",
    );
  }
  const dv = view(tail);
  const disk = dv.getUint16(at + 4, true);
  const cdDisk = dv.getUint16(at + 6, true);
  let entries = dv.getUint16(at + 10, true);
  let cdSize = dv.getUint32(at + 12, true);
  let cdOffset = dv.getUint32(at + 16, true);
  let cdEnd = tailStart + at;
  let zip64 = false;
  const locatorAt = at - EOCD64_LOCATOR_SIZE;
  if (locatorAt >= 0 && dv.getUint32(locatorAt, true) === SIG_EOCD64_LOCATOR) {
    zip64 = true;
    const recordOffset = u64(dv, locatorAt + 8, "zip64 end record offset");
    // Right before the locator (where writers put it, and where it is found even when a stub
    // precedes the archive and shifts every offset), else where the locator says.
    const candidates = [tailStart + locatorAt - EOCD64_SIZE, recordOffset];
    let record: Uint8Array | undefined;
    let recordAt = -1;
    for (const candidate of candidates) {
      if (candidate < 0 || candidate + EOCD64_SIZE > tailStart + locatorAt) continue;
      const bytes =
        candidate >= tailStart
          ? tail.subarray(candidate - tailStart, candidate - tailStart + EOCD64_SIZE)
          : await readMore(candidate, EOCD64_SIZE);
      if (bytes.length === EOCD64_SIZE && view(bytes).getUint32(0, true) === SIG_EOCD64) {
        record = bytes;
        recordAt = candidate;
        break;
      }
    }
    if (record === undefined)
      throw new ZipError("Corrupt zip64 archive: the zip64 end record is missing");
    const rv = view(record);
    entries = u64(rv, 32, "entry count");
    cdSize = u64(rv, 40, "central directory size");
    cdOffset = u64(rv, 48, "central directory offset");
    cdEnd = recordAt;
  } else if (disk !== 0 || cdDisk !== 0) {
    throw new ZipError("Split (multi-disk) zip archives are not supported");
  }
  const cdStart = cdEnd - cdSize;
  if (cdStart < 0) {
    throw new ZipError(
      `Corrupt zip archive: the central directory (${cdSize} bytes) is larger than what precedes its end`,
    );
  }
  const shift = cdStart - cdOffset;
  if (shift < 0) {
    throw new ZipError(
      `Corrupt zip archive: the central directory claims offset ${cdOffset}, past where it can be (${cdStart})`,
    );
  }
  if (entries * CENTRAL_HEADER_SIZE > cdSize && entries !== U16_MAX) {
    throw new ZipError(
      `Corrupt zip archive: ${entries} entries cannot fit in a ${cdSize}-byte central directory`,
    );
  }
  return { entries, cdStart, cdSize, shift, zip64 };
}

/** Reads the zip64 extended-information extra field: the fields the header set to all ones. */
function zip64Fields(
  extra: Uint8Array,
  wanted: { size: boolean; compressedSize: boolean; offset: boolean; disk: boolean },
  name: string,
): { size?: number; compressedSize?: number; offset?: number } {
  const dv = view(extra);
  for (let p = 0; p + 4 <= extra.length; ) {
    const id = dv.getUint16(p, true);
    const length = dv.getUint16(p + 2, true);
    const end = p + 4 + length;
    if (end > extra.length) break;
    if (id === ZIP64_EXTRA_ID) {
      const out: { size?: number; compressedSize?: number; offset?: number } = {};
      let q = p + 4;
      const take = (what: string) => {
        if (q + 8 > end)
          throw new ZipError(
            `Corrupt zip archive: entry ${JSON.stringify(name)} lacks its zip64 ${what}`,
          );
        const value = u64(dv, q, `zip64 ${what}`);
        q += 8;
        return value;
      };
      if (wanted.size) out.size = take("size");
      if (wanted.compressedSize) out.compressedSize = take("compressed size");
      if (wanted.offset) out.offset = take("offset");
      return out;
    }
    p = end;
  }
  throw new ZipError(
    `Corrupt zip archive: entry ${JSON.stringify(name)} needs a zip64 extra field and has none`,
  );
}

/** Parses the central directory's records. */
export function parseCentralDirectory(cd: Uint8Array, end: EndRecords): ZipEntry[] {
  const dv = view(cd);
  const entries: ZipEntry[] = [];
  let p = 0;
  while (p + 4 <= cd.length && dv.getUint32(p, true) === SIG_CENTRAL) {
    if (p + CENTRAL_HEADER_SIZE > cd.length) break;
    const flags = dv.getUint16(p + 8, true);
    const method = dv.getUint16(p + 10, true);
    const crc32 = dv.getUint32(p + 16, true);
    let compressedSize = dv.getUint32(p + 20, true);
    let size = dv.getUint32(p + 24, true);
    const nameLength = dv.getUint16(p + 28, true);
    const extraLength = dv.getUint16(p + 30, true);
    const commentLength = dv.getUint16(p + 32, true);
    const disk = dv.getUint16(p + 34, true);
    let offset = dv.getUint32(p + 42, true);
    const next = p + CENTRAL_HEADER_SIZE + nameLength + extraLength + commentLength;
    if (next > cd.length) {
      throw new ZipError(
        `Corrupt zip archive: central directory record ${entries.length} runs past the directory's end`,
      );
    }
    const nameBytes = cd.slice(p + CENTRAL_HEADER_SIZE, p + CENTRAL_HEADER_SIZE + nameLength);
    const name = decodeName(nameBytes, flags);
    const wanted = {
      size: size === U32_MAX,
      compressedSize: compressedSize === U32_MAX,
      offset: offset === U32_MAX,
      disk: disk === U16_MAX,
    };
    if (wanted.size || wanted.compressedSize || wanted.offset) {
      const extra = cd.subarray(
        p + CENTRAL_HEADER_SIZE + nameLength,
        p + CENTRAL_HEADER_SIZE + nameLength + extraLength,
      );
      const z = zip64Fields(extra, wanted, name);
      size = z.size ?? size;
      compressedSize = z.compressedSize ?? compressedSize;
      offset = z.offset ?? offset;
    }
    entries.push({
      name,
      nameBytes,
      flags,
      method,
      crc32,
      compressedSize,
      size,
      localHeaderOffset: offset + end.shift,
      centralExtraLength: extraLength,
    });
    p = next;
  }
  const counted = entries.length;
  // Writers without zip64 that hold more than 65535 entries store the count modulo 65536.
  const matches =
    counted === end.entries || (!end.zip64 && counted % 0x10000 === end.entries % 0x10000);
  if (!matches) {
    throw new ZipError(
      `Corrupt zip archive: the central directory holds ${counted} readable records, the end record says ${end.entries}`,
    );
  }
  return entries;
}

/** What a local header says, once checked against the central directory. */
export interface LocalHeader {
  /** Length of the header with its name and extra field: the data follows. */
  length: number;
}

/**
 * Checks an entry's local header (`bytes` start at the header; at least 30 bytes) against its
 * central record. Returns the header's full length, or how many bytes are needed when `bytes`
 * stop before the end of its name and extra field.
 * @throws ZipError when the header is not one, or disagrees with the central directory
 */
export function checkLocalHeader(
  bytes: Uint8Array,
  entry: ZipEntry,
): LocalHeader | { needed: number } {
  const bad = (why: string) =>
    new ZipError(`Corrupt zip archive: the local header of ${JSON.stringify(entry.name)} ${why}`);
  if (bytes.length < LOCAL_HEADER_SIZE) throw bad("is cut short (truncated archive?)");
  const dv = view(bytes);
  if (dv.getUint32(0, true) !== SIG_LOCAL)
    throw bad(`is missing (no signature at offset ${entry.localHeaderOffset})`);
  const nameLength = dv.getUint16(26, true);
  const extraLength = dv.getUint16(28, true);
  const length = LOCAL_HEADER_SIZE + nameLength + extraLength;
  if (bytes.length < length) return { needed: length };
  const name = bytes.subarray(LOCAL_HEADER_SIZE, LOCAL_HEADER_SIZE + nameLength);
  if (name.length !== entry.nameBytes.length || name.some((b, i) => b !== entry.nameBytes[i])) {
    throw bad(`names another file (${JSON.stringify(decodeName(name, dv.getUint16(6, true)))})`);
  }
  const method = dv.getUint16(8, true);
  if (method !== entry.method)
    throw bad(`says compression method ${method}, the central directory ${entry.method}`);
  if (!(dv.getUint16(6, true) & FLAG_DATA_DESCRIPTOR)) {
    const crc = dv.getUint32(14, true);
    let compressedSize = dv.getUint32(18, true);
    let size = dv.getUint32(22, true);
    if (size === U32_MAX || compressedSize === U32_MAX) {
      const extra = bytes.subarray(LOCAL_HEADER_SIZE + nameLength, length);
      // A local zip64 field holds both sizes, whichever overflowed.
      const z = zip64Fields(
        extra,
        { size: true, compressedSize: true, offset: false, disk: false },
        entry.name,
      );
      size = z.size!;
      compressedSize = z.compressedSize!;
    }
    if (crc !== entry.crc32 || compressedSize !== entry.compressedSize || size !== entry.size) {
      throw bad(
        `disagrees with the central directory (crc ${crc}/${entry.crc32}, sizes ${compressedSize}/${entry.compressedSize} and ${size}/${entry.size})`,
      );
    }
  }
  return { length };
}
