import { crc32 } from "#crc32";
import { type DeflateLevel, pythonDeflate } from "./python-deflate.js";

const FHCRC = 2;
const FEXTRA = 4;
const FNAME = 8;
const FCOMMENT = 16;

/**
 * The XFL byte Python's gzip module writes (CPython >= 3.7.7 / 3.8.2): 2 for level 9, 4 for level
 * 1, 0 otherwise. Older Pythons always wrote 2, which is what the 2018 numcodecs golden files hold.
 */
export function gzipExtraFlags(level: number): number {
  return level === 9 ? 2 : level === 1 ? 4 : 0;
}

/**
 * Compresses `data` into one gzip member laid out exactly as Python's `gzip.GzipFile` writes it
 * (what numcodecs' GZip codec stores): no flags, OS byte 255, raw deflate driven as GzipFile
 * drives it, then the CRC-32 and the size. The 4 mtime bytes are 0, so the output depends
 * only on the data and the level.
 */
export function gzipCompressPython(data: Uint8Array, level: number): Uint8Array {
  const body = pythonDeflate(data, level as DeflateLevel, true, "compress-then-flush");
  const out = new Uint8Array(10 + body.length + 8);
  out[0] = 0x1f;
  out[1] = 0x8b;
  out[2] = 8; // deflate
  out[8] = gzipExtraFlags(level);
  out[9] = 0xff; // OS: unknown, as Python writes it
  out.set(body, 10);
  const view = new DataView(out.buffer);
  view.setUint32(10 + body.length, crc32(data), true);
  view.setUint32(14 + body.length, data.length >>> 0, true);
  return out;
}

/**
 * The length of the gzip member header at the start of `data`, or undefined when it is not a
 * complete gzip header (wrong magic, not deflate, reserved flags, or cut short).
 */
export function gzipHeaderLength(data: Uint8Array): number | undefined {
  if (data.length < 10 || data[0] !== 0x1f || data[1] !== 0x8b || data[2] !== 8 || data[3] & 0xe0)
    return undefined;
  const flags = data[3];
  let pos = 10;
  if (flags & FEXTRA) {
    if (pos + 2 > data.length) return undefined;
    pos += 2 + (data[pos] | (data[pos + 1] << 8));
  }
  for (const flag of [FNAME, FCOMMENT]) {
    if (!(flags & flag)) continue;
    while (pos < data.length && data[pos] !== 0) pos++;
    pos++; // the terminating NUL
  }
  if (flags & FHCRC) pos += 2;
  return pos <= data.length ? pos : undefined;
}
