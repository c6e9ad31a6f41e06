import { xxhash32 } from "../checksums/xxhash32.js";
import { concat } from "../concat.js";
import { DecompressionError } from "../errors.js";
import { lz4CompressWasm } from "../wasm.js";
import { lz4DecompressBlock } from "./decompress.js";

// The LZ4 frame format (doc/lz4_Frame_format.md of the lz4 project, version 1.6.x): what the `lz4` command line tool
// writes and what Arrow IPC's LZ4_FRAME body compression holds.

const MAGIC = 0x184d2204;
/** Skippable frames: magic 0x184D2A50 to 0x184D2A5F, a 4-byte size, that many bytes. */
const SKIPPABLE_MASK = 0xfffffff0;
const SKIPPABLE = 0x184d2a50;
const BLOCK_MAX_SIZES: Record<number, number> = { 4: 1 << 16, 5: 1 << 18, 6: 1 << 20, 7: 1 << 22 };
/** The block size the encoder uses (4 MiB, the largest the format allows). */
const ENCODE_BLOCK_SIZE = 1 << 22;

/** Options of {@link lz4FrameDecompress}. */
export interface Lz4FrameDecompressOptions {
  /** The exact decoded size, when known: the output is allocated once at this size. */
  expectedSize?: number;
  /** The most bytes the frames may decode to. */
  maxSize: number;
}

/** A growable output buffer that never exceeds its limit. */
class Output {
  bytes: Uint8Array;
  length = 0;
  constructor(
    initial: number,
    readonly limit: number,
  ) {
    this.bytes = new Uint8Array(initial);
  }
  /** Makes room for `extra` more bytes; false when that would pass the limit. */
  reserve(extra: number): boolean {
    const needed = this.length + extra;
    if (needed > this.limit) return false;
    if (needed > this.bytes.length) {
      const grown = new Uint8Array(Math.min(this.limit, Math.max(needed, this.bytes.length * 2)));
      grown.set(this.bytes.subarray(0, this.length));
      this.bytes = grown;
    }
    return true;
  }
}

/**
 * Decodes one or more concatenated LZ4 frames (skippable frames are skipped). Checks the frame
 * descriptor's checksum, block and content checksums when present, and every block against the
 * limit before decoding it: hostile input yields a DecompressionError (format `LZ4 frame`),
 * never a large allocation.
 * @throws DecompressionError
 */
export function lz4FrameDecompress(
  bytes: Uint8Array,
  options: Lz4FrameDecompressOptions,
): Uint8Array {
  const fail = (problem: string): never => {
    throw new DecompressionError("LZ4 frame", problem);
  };
  const limit =
    options.expectedSize === undefined
      ? options.maxSize
      : Math.min(options.expectedSize, options.maxSize);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out = new Output(options.expectedSize ?? Math.min(limit, 1 << 16), limit);
  let pos = 0;
  let frames = 0;
  while (pos < bytes.length) {
    if (pos + 4 > bytes.length) fail("the data ends inside a frame's magic number");
    const magic = view.getUint32(pos, true);
    if ((magic & SKIPPABLE_MASK) >>> 0 === SKIPPABLE) {
      if (pos + 8 > bytes.length) fail("the data ends inside a skippable frame's size");
      const size = view.getUint32(pos + 4, true);
      if (size > bytes.length - pos - 8) fail(`a skippable frame claims ${size} bytes`);
      pos += 8 + size;
      continue;
    }
    if (magic !== MAGIC)
      fail(`not an LZ4 frame (magic number 0x${magic.toString(16)} at byte ${pos})`);
    pos = decodeFrame(bytes, view, pos + 4, out, fail);
    frames++;
  }
  if (frames === 0) fail("no LZ4 frame");
  if (options.expectedSize !== undefined && out.length !== options.expectedSize) {
    fail(`the frames decode to ${out.length} bytes; ${options.expectedSize} were expected`);
  }
  return out.bytes.length === out.length ? out.bytes : out.bytes.slice(0, out.length);
}

/** Decodes the frame whose descriptor starts at `pos`; returns the position after it. */
function decodeFrame(
  bytes: Uint8Array,
  view: DataView,
  pos: number,
  out: Output,
  fail: (problem: string) => never,
): number {
  if (pos + 3 > bytes.length) fail("the data ends inside a frame descriptor");
  const descriptorStart = pos;
  const flg = bytes[pos];
  const bd = bytes[pos + 1];
  if (flg >> 6 !== 1) fail(`LZ4 frame version ${flg >> 6} is not supported (1 is)`);
  if (flg & 0b10 || bd & 0b10001111) fail("the frame descriptor sets reserved bits");
  const independent = (flg & 0x20) !== 0;
  const blockChecksum = (flg & 0x10) !== 0;
  const hasContentSize = (flg & 0x08) !== 0;
  const contentChecksum = (flg & 0x04) !== 0;
  const hasDictionary = (flg & 0x01) !== 0;
  const blockMax = BLOCK_MAX_SIZES[(bd >> 4) & 7];
  if (blockMax === undefined) fail(`block maximum size code ${(bd >> 4) & 7} is not valid`);
  pos += 2;
  let contentSize: number | undefined;
  if (hasContentSize) {
    if (pos + 8 > bytes.length) fail("the data ends inside the frame's content size");
    const size = view.getBigUint64(pos, true);
    if (size > BigInt(Number.MAX_SAFE_INTEGER) || !out.reserve(Number(size)))
      fail(`the frame declares ${size} bytes of content, more than the limit`);
    contentSize = Number(size);
    pos += 8;
  }
  if (hasDictionary) fail("the frame needs a dictionary, which is not supported");
  if (pos + 1 > bytes.length) fail("the data ends inside the frame descriptor");
  const headerChecksum = (xxhash32(bytes.subarray(descriptorStart, pos)) >>> 8) & 0xff;
  if (bytes[pos] !== headerChecksum) fail("the frame descriptor's checksum does not match");
  pos += 1;
  const frameStart = out.length;
  for (;;) {
    if (pos + 4 > bytes.length) fail("the data ends inside a block size");
    const word = view.getUint32(pos, true);
    pos += 4;
    if (word === 0) break; // EndMark
    const stored = (word & 0x80000000) !== 0;
    const size = word & 0x7fffffff;
    if (size > blockMax)
      fail(`a block of ${size} bytes exceeds the frame's ${blockMax}-byte maximum`);
    if (size > bytes.length - pos)
      fail(`a block claims ${size} bytes; ${bytes.length - pos} remain`);
    const block = bytes.subarray(pos, pos + size);
    pos += size;
    if (blockChecksum) {
      if (pos + 4 > bytes.length) fail("the data ends inside a block checksum");
      if (view.getUint32(pos, true) !== xxhash32(block)) fail("a block checksum does not match");
      pos += 4;
    }
    if (stored) {
      if (!out.reserve(size)) fail("the frames decode to more bytes than the limit");
      out.bytes.set(block, out.length);
      out.length += size;
      continue;
    }
    // A compressed block decodes to at most blockMax bytes: room for that, within the limit.
    const room = Math.min(blockMax, out.limit - out.length);
    out.reserve(room);
    const base = independent ? out.length : frameStart;
    const dst = out.bytes.subarray(base, out.length + room);
    out.length = base + decodeBlock(block, dst, out.length - base, fail);
  }
  if (contentSize !== undefined && out.length - frameStart !== contentSize) {
    fail(
      `the frame declares ${contentSize} bytes of content but decodes to ${out.length - frameStart}`,
    );
  }
  if (contentChecksum) {
    if (pos + 4 > bytes.length) fail("the data ends inside the content checksum");
    if (view.getUint32(pos, true) !== xxhash32(out.bytes.subarray(frameStart, out.length)))
      fail("the content checksum does not match");
    pos += 4;
  }
  return pos;
}

/** {@link lz4DecompressBlock}, its error reported as a corrupt block of the frame. */
function decodeBlock(
  block: Uint8Array,
  dst: Uint8Array,
  start: number,
  fail: (problem: string) => never,
): number {
  try {
    return lz4DecompressBlock(block, dst, start);
  } catch (error) {
    if (error instanceof DecompressionError) fail(`corrupt block: ${error.problem}`);
    throw error;
  }
}

/**
 * Encodes bytes as one LZ4 frame: independent 4 MiB blocks (liblz4 compiled to WebAssembly,
 * loaded on first use; a block that does not shrink is stored), the content size in the
 * descriptor, no checksums. The `lz4` command line tool and every Arrow implementation read it.
 */
export async function lz4FrameCompress(bytes: Uint8Array): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  const descriptor = new Uint8Array(10);
  const dv = new DataView(descriptor.buffer);
  descriptor[0] = 0x60 | 0x08; // version 1, independent blocks, content size
  descriptor[1] = 7 << 4; // 4 MiB blocks
  dv.setBigUint64(2, BigInt(bytes.length), true);
  const header = new Uint8Array(4 + 11);
  const hv = new DataView(header.buffer);
  hv.setUint32(0, MAGIC, true);
  header.set(descriptor, 4);
  header[14] = (xxhash32(descriptor) >>> 8) & 0xff;
  parts.push(header);
  for (let start = 0; start < bytes.length; start += ENCODE_BLOCK_SIZE) {
    const chunk = bytes.subarray(start, start + ENCODE_BLOCK_SIZE);
    const block = await lz4CompressWasm(chunk, 1);
    const size = new Uint8Array(4);
    const stored = block.length >= chunk.length;
    new DataView(size.buffer).setUint32(
      0,
      stored ? (chunk.length | 0x80000000) >>> 0 : block.length,
      true,
    );
    parts.push(size, stored ? chunk : block);
  }
  parts.push(new Uint8Array(4)); // EndMark
  return concat(parts);
}
