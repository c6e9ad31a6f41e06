import { DecompressionError } from "./errors.js";
import { copyBytes, copyMatch, read32 } from "./lz4/copy.js";

/**
 * Snappy raw format (a varint of the decoded length, then literal and copy elements). The
 * compressor follows snappy 1.1.9's `RawCompress`: 64 KiB fragments compressed independently,
 * a hash table sized to the fragment, the same skip heuristic and the same copy encodings.
 */

const BLOCK_SIZE = 1 << 16;
const MAX_HASH_TABLE_BITS = 14;
const INPUT_MARGIN = 15;

const table = new Uint16Array(1 << MAX_HASH_TABLE_BITS);

/** Snappy's worst-case compressed size (c-blosc refuses to call it with less room). */
export function snappyMaxCompressedLength(n: number): number {
  return 32 + n + Math.floor(n / 6);
}

/**
 * Compresses `src` into `dst` in snappy's raw format. Returns the compressed size, or 0 when
 * `dst` is shorter than {@link snappyMaxCompressedLength} (snappy-c then reports "buffer too
 * small").
 */
export function snappyCompress(src: Uint8Array, dst: Uint8Array): number {
  const start = 0;
  const length = src.length;
  const dstStart = 0;
  const maxout = dst.length;
  if (maxout < snappyMaxCompressedLength(length)) return 0;
  let op = dstStart;
  let n = length;
  while (n >= 0x80) {
    dst[op++] = (n & 0x7f) | 0x80;
    n >>>= 7;
  }
  dst[op++] = n;
  for (let pos = 0; pos < length; pos += BLOCK_SIZE) {
    const fragment = Math.min(length - pos, BLOCK_SIZE);
    op = compressFragment(src, start + pos, fragment, dst, op, tableSizeFor(fragment));
  }
  return op - dstStart;
}

function tableSizeFor(n: number): number {
  if (n > 1 << MAX_HASH_TABLE_BITS) return 1 << MAX_HASH_TABLE_BITS;
  if (n < 256) return 256;
  return 2 << (31 - Math.clz32(n - 1));
}

function compressFragment(
  src: Uint8Array,
  base: number,
  size: number,
  dst: Uint8Array,
  op: number,
  tableSize: number,
): number {
  const mask = tableSize - 1;
  const hash = (bytes: number) =>
    (Math.imul(bytes, 0x1e35a7bd) >>> (31 - MAX_HASH_TABLE_BITS + 1)) & mask;
  table.fill(0, 0, tableSize);
  const ipEnd = base + size;
  let ip = base;
  if (size >= INPUT_MARGIN) {
    const ipLimit = base + size - INPUT_MARGIN;
    let preload = read32(src, ip + 1);
    outer: for (;;) {
      const nextEmit = ip++;
      let candidate = 0;
      let skip = 32;
      let found = false;
      if (ipLimit - ip >= 16) {
        const delta = ip - base;
        for (let i = 0; i < 16; i++) {
          const dword = i === 0 ? preload : read32(src, ip + i);
          const h = hash(dword);
          candidate = base + table[h];
          table[h] = delta + i;
          if (read32(src, candidate) === dword) {
            ip += i;
            found = true;
            break;
          }
        }
        if (!found) {
          ip += 16;
          skip += 16;
        }
      }
      if (!found) {
        for (;;) {
          const data = read32(src, ip);
          const h = hash(data);
          const step = skip >>> 5;
          skip += step;
          const nextIp = ip + step;
          if (nextIp > ipLimit) {
            ip = nextEmit;
            break outer;
          }
          candidate = base + table[h];
          table[h] = ip - base;
          if (data === read32(src, candidate)) break;
          ip = nextIp;
        }
      }
      op = emitLiteral(src, nextEmit, ip - nextEmit, dst, op);
      // Emit copies for as long as the bytes right after a copy match again.
      for (;;) {
        const matchStart = ip;
        let matched = 4;
        while (ip + matched < ipEnd && src[candidate + matched] === src[ip + matched]) matched++;
        ip += matched;
        op = emitCopy(dst, op, matchStart - candidate, matched);
        if (ip >= ipLimit) break outer;
        table[hash(read32(src, ip - 1))] = ip - base - 1;
        const current = read32(src, ip);
        const h = hash(current);
        candidate = base + table[h];
        table[h] = ip - base;
        if (current !== read32(src, candidate)) break;
      }
      preload = read32(src, ip + 1);
    }
  }
  if (ip < ipEnd) op = emitLiteral(src, ip, ipEnd - ip, dst, op);
  return op;
}

function emitLiteral(
  src: Uint8Array,
  from: number,
  len: number,
  dst: Uint8Array,
  op: number,
): number {
  const n = len - 1;
  if (n < 60) {
    dst[op++] = n << 2;
  } else {
    const count = ((31 - Math.clz32(n)) >>> 3) + 1;
    dst[op++] = (59 + count) << 2;
    for (let i = 0; i < count; i++) dst[op++] = (n >>> (8 * i)) & 0xff;
  }
  return copyBytes(src, from, dst, op, len);
}

function emitCopyAtMost64(dst: Uint8Array, op: number, offset: number, len: number): number {
  if (len < 12 && offset < 2048) {
    dst[op++] = 1 + ((len - 4) << 2) + ((offset >>> 3) & 0xe0);
    dst[op++] = offset & 0xff;
  } else {
    dst[op++] = 2 + ((len - 1) << 2);
    dst[op++] = offset & 0xff;
    dst[op++] = offset >>> 8;
  }
  return op;
}

function emitCopy(dst: Uint8Array, op: number, offset: number, len: number): number {
  if (len < 12) return emitCopyAtMost64(dst, op, offset, len);
  while (len >= 68) {
    op = emitCopyAtMost64(dst, op, offset, 64);
    len -= 64;
  }
  if (len > 64) {
    op = emitCopyAtMost64(dst, op, offset, 60);
    len -= 60;
  }
  return emitCopyAtMost64(dst, op, offset, len);
}

/**
 * Decodes the snappy stream `src` (raw format) into `dst` and returns the number of bytes
 * written (the length the stream declares).
 * @throws DecompressionError for a malformed stream or one that does not fit `dst`
 */
export function snappyDecompress(src: Uint8Array, dst: Uint8Array): number {
  const end = src.length;
  const dstStart = 0;
  const dstEnd = dst.length;
  let ip = 0;
  let declared = 0;
  for (let shift = 0; ; shift += 7) {
    if (ip >= end || shift > 28) throw snappyError("bad length preamble");
    const c = src[ip++];
    declared += (c & 0x7f) * 2 ** shift;
    if (c < 0x80) break;
  }
  if (declared > dstEnd - dstStart)
    throw snappyError(`it declares ${declared} bytes, more than the ${dstEnd - dstStart} expected`);
  const limit = dstStart + declared;
  let op = dstStart;
  while (ip < end) {
    const tag = src[ip++];
    const type = tag & 3;
    if (type === 0) {
      let len = (tag >>> 2) + 1;
      if (len > 60) {
        const count = len - 60;
        if (ip + count > end) throw snappyError("a literal length is cut off");
        len = 0;
        for (let i = 0; i < count; i++) len += src[ip + i] * 2 ** (8 * i);
        len += 1;
        ip += count;
      }
      if (ip + len > end) throw snappyError("literals run past the end of the stream");
      if (op + len > limit) throw snappyError("literals overflow the declared length");
      op = copyBytes(src, ip, dst, op, len);
      ip += len;
      continue;
    }
    let len: number;
    let offset: number;
    if (type === 1) {
      if (ip >= end) throw snappyError("a copy offset is cut off");
      len = ((tag >>> 2) & 7) + 4;
      offset = ((tag >>> 5) << 8) | src[ip++];
    } else if (type === 2) {
      if (ip + 2 > end) throw snappyError("a copy offset is cut off");
      len = (tag >>> 2) + 1;
      offset = src[ip] | (src[ip + 1] << 8);
      ip += 2;
    } else {
      if (ip + 4 > end) throw snappyError("a copy offset is cut off");
      len = (tag >>> 2) + 1;
      offset = (src[ip] | (src[ip + 1] << 8) | (src[ip + 2] << 16) | (src[ip + 3] << 24)) >>> 0;
      ip += 4;
    }
    if (offset === 0 || offset > op - dstStart)
      throw snappyError(`copy offset ${offset} points before the start of the block`);
    if (op + len > limit) throw snappyError("a copy overflows the declared length");
    op = copyMatch(dst, op, offset, len);
  }
  if (op !== limit)
    throw snappyError(`it decodes to ${op - dstStart} bytes but declares ${declared}`);
  return declared;
}

function snappyError(problem: string): DecompressionError {
  return new DecompressionError("snappy", problem);
}
