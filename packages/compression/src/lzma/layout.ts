// Walks the structure of .xz streams and raw LZMA2 data without decoding them, to learn the
// exact size they decode to: every LZMA2 chunk header states its decoded size, and a decoder
// produces exactly that. A decoder can then be refused input that would exceed a chunk's bound
// before it allocates anything.

/** The decoded size of some data, or why its structure is not valid. */
export type LzmaLayout = { size: number } | { error: string };

/** Bytes of the integrity check for each .xz check type (0 none, 1 CRC32, 4 CRC64, 10 SHA-256). */
function checkSize(type: number): number {
  if (type === 0) return 0;
  return 4 << Math.floor((type - 1) / 3);
}

class Reader {
  constructor(
    readonly bytes: Uint8Array,
    public pos = 0,
  ) {}
  need(n: number): void {
    if (this.pos + n > this.bytes.length) throw new RangeError("the data ends early");
  }
  byte(): number {
    this.need(1);
    return this.bytes[this.pos++];
  }
  /** An .xz variable-length integer (7 bits per byte, at most 9 bytes). */
  varint(): number {
    let value = 0;
    for (let i = 0; i < 9; i++) {
      const b = this.byte();
      value += (b & 0x7f) * 2 ** (7 * i);
      if ((b & 0x80) === 0) return value;
    }
    throw new RangeError("a variable-length integer is too long");
  }
}

/** Walks LZMA2 chunks from the reader's position to the end marker; returns the decoded size. */
function walkLzma2(r: Reader, limit: number): number {
  let size = 0;
  for (;;) {
    const control = r.byte();
    if (control === 0x00) return size;
    if (control === 0x01 || control === 0x02) {
      r.need(2);
      const n = ((r.bytes[r.pos] << 8) | r.bytes[r.pos + 1]) + 1;
      r.pos += 2;
      r.need(n);
      r.pos += n;
      size += n;
    } else if (control >= 0x80) {
      r.need(4);
      const unpacked = (control & 0x1f) * 65536 + ((r.bytes[r.pos] << 8) | r.bytes[r.pos + 1]) + 1;
      const packed = ((r.bytes[r.pos + 2] << 8) | r.bytes[r.pos + 3]) + 1;
      r.pos += 4;
      if (((control >> 5) & 3) >= 2) r.byte();
      r.need(packed);
      r.pos += packed;
      size += unpacked;
    } else {
      throw new RangeError(`invalid LZMA2 chunk type 0x${control.toString(16)}`);
    }
    if (size > limit) return size;
  }
}

/**
 * The decoded size of raw LZMA2 data (numcodecs' `format: 3` with an LZMA2 filter), stopping
 * early once it passes `limit`.
 */
export function lzma2Layout(bytes: Uint8Array, limit: number): LzmaLayout {
  try {
    const r = new Reader(bytes);
    const size = walkLzma2(r, limit);
    if (size <= limit && r.pos !== bytes.length)
      return { error: `${bytes.length - r.pos} bytes follow the end of the LZMA2 data` };
    return { size };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

const XZ_MAGIC = [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00];
const LZMA2_FILTER = 0x21;

/** Whether bytes start with the .xz magic. */
export function isXz(bytes: Uint8Array): boolean {
  return XZ_MAGIC.every((b, i) => bytes[i] === b);
}

/** Walks one .xz block from the reader's position; returns its decoded size. */
function walkBlock(r: Reader, headerSizeByte: number, check: number, limit: number): number {
  const start = r.pos - 1;
  const headerEnd = start + (headerSizeByte + 1) * 4;
  const flags = r.byte();
  if (flags & 0x3c) throw new RangeError("unsupported block flags");
  const filters = (flags & 3) + 1;
  if (flags & 0x40) r.varint();
  const declared = flags & 0x80 ? r.varint() : undefined;
  let last = -1;
  for (let i = 0; i < filters; i++) {
    last = r.varint();
    const propsSize = r.varint();
    r.need(propsSize);
    r.pos += propsSize;
  }
  if (last !== LZMA2_FILTER)
    throw new RangeError(`the last filter is 0x${last.toString(16)}, not LZMA2`);
  r.need(headerEnd - r.pos);
  r.pos = headerEnd;
  const size = walkLzma2(r, limit);
  if (size > limit) return size;
  if (declared !== undefined && declared !== size)
    throw new RangeError("a block header's size disagrees with its data");
  while ((r.pos - start) % 4 !== 0)
    if (r.byte() !== 0) throw new RangeError("non-zero block padding");
  r.need(checkSize(check));
  r.pos += checkSize(check);
  return size;
}

/** Skips an .xz index (its records were checked by the decoder) and the stream footer. */
function skipIndexAndFooter(r: Reader): void {
  const start = r.pos - 1;
  const records = r.varint();
  for (let i = 0; i < records; i++) {
    r.varint();
    r.varint();
  }
  while ((r.pos - start) % 4 !== 0) r.byte();
  r.need(4 + 12);
  r.pos += 4 + 12;
  if (r.bytes[r.pos - 2] !== 0x59 || r.bytes[r.pos - 1] !== 0x5a)
    throw new RangeError("no stream footer");
}

/**
 * The decoded size of .xz data (one or more streams, numcodecs' `format: 1`), stopping early
 * once it passes `limit`; `check` is the check type of the first stream.
 */
export function xzLayout(bytes: Uint8Array, limit: number): LzmaLayout & { check?: number } {
  try {
    const r = new Reader(bytes);
    let size = 0;
    let firstCheck: number | undefined;
    while (r.pos < bytes.length) {
      if (!isXz(bytes.subarray(r.pos))) {
        // Stream padding: zero bytes in multiples of four.
        if (bytes.subarray(r.pos).every((b) => b === 0) && (bytes.length - r.pos) % 4 === 0) break;
        throw new RangeError("not an .xz stream");
      }
      r.need(12);
      const check = r.bytes[r.pos + 7] & 0x0f;
      firstCheck ??= check;
      r.pos += 12;
      for (;;) {
        const indicator = r.byte();
        if (indicator === 0x00) break;
        size += walkBlock(r, indicator, check, limit - size);
        if (size > limit) return { size, check: firstCheck };
      }
      skipIndexAndFooter(r);
    }
    if (firstCheck === undefined) return { error: "no .xz stream" };
    return { size, check: firstCheck };
  } catch (error) {
    return { error: (error as Error).message };
  }
}
