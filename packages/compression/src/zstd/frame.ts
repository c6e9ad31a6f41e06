// Reading the structure of zstd data (RFC 8878) without decompressing it, so that a decoder can
// refuse oversized, truncated or malformed input before handing it to libzstd.

const FRAME_MAGIC = 0xfd2fb528;
const SKIPPABLE_MAGIC_MASK = 0xfffffff0;
const SKIPPABLE_MAGIC = 0x184d2a50;
/** Block_Maximum_Size is min(Window_Size, 128 KiB). */
const BLOCK_SIZE_MAX = 128 * 1024;

/** One zstd frame found in the data. */
export interface ZstdFrame {
  /** Offset of the frame's magic number. */
  start: number;
  /** Offset just past the frame (its checksum included). */
  end: number;
  /** Offset just past the frame header, where the first block starts. */
  headerEnd: number;
  /** Frame_Content_Size, when the header declares it (may exceed 2^53 in hostile data). */
  contentSize: number | undefined;
  /**
   * The most bytes the frame's blocks can decode to: raw and RLE blocks state their size, a
   * compressed block decodes to at most Block_Maximum_Size.
   */
  blockBound: number;
}

/** The frames of zstd data, or the reason the data is not well-formed zstd. */
export type ZstdLayout = { frames: ZstdFrame[] } | { error: string };

/**
 * Walks every frame and block header of `data` (skippable frames are stepped over). It fails on
 * anything libzstd would also reject before decoding a block: a bad magic number, a reserved
 * bit, a block that runs past the end of the data, a missing checksum or trailing bytes.
 */
export function zstdLayout(data: Uint8Array): ZstdLayout {
  const frames: ZstdFrame[] = [];
  const view = new DataView(data.buffer, data.byteOffset, data.length);
  let pos = 0;
  if (data.length === 0) return { error: "no data (a zstd frame has at least 9 bytes)" };
  while (pos < data.length) {
    if (pos + 4 > data.length)
      return { error: `${data.length - pos} stray bytes after the last frame` };
    const magic = view.getUint32(pos, true);
    if ((magic & SKIPPABLE_MAGIC_MASK) >>> 0 === SKIPPABLE_MAGIC) {
      if (pos + 8 > data.length) return { error: "a skippable frame is cut short" };
      const next = pos + 8 + view.getUint32(pos + 4, true);
      if (next > data.length) return { error: "a skippable frame runs past the end of the data" };
      pos = next;
      continue;
    }
    if (magic !== FRAME_MAGIC) {
      return {
        error: `no zstd frame at byte ${pos} (magic 0x${magic.toString(16).padStart(8, "0")})`,
      };
    }
    const frame = readFrame(data, view, pos);
    if ("error" in frame) return frame;
    frames.push(frame);
    pos = frame.end;
  }
  return { frames };
}

function readFrame(data: Uint8Array, view: DataView, start: number): ZstdFrame | { error: string } {
  let pos = start + 4;
  if (pos >= data.length) return { error: "the frame header is cut short" };
  const descriptor = data[pos++];
  const fcsFlag = descriptor >> 6;
  const singleSegment = (descriptor >> 5) & 1;
  const hasChecksum = (descriptor >> 2) & 1;
  if (descriptor & 0x08) return { error: "the frame header sets a reserved bit" };
  const dictIdBytes = [0, 1, 2, 4][descriptor & 3];
  const fcsBytes = [singleSegment ? 1 : 0, 2, 4, 8][fcsFlag];
  const headerEnd = pos + (singleSegment ? 0 : 1) + dictIdBytes + fcsBytes;
  if (headerEnd > data.length) return { error: "the frame header is cut short" };

  let windowSize = Number.POSITIVE_INFINITY;
  if (!singleSegment) {
    const wd = data[pos++];
    const windowBase = 2 ** (10 + (wd >> 3));
    windowSize = windowBase + (windowBase / 8) * (wd & 7);
  }
  pos += dictIdBytes;
  let contentSize: number | undefined;
  if (fcsBytes === 1) contentSize = data[pos];
  else if (fcsBytes === 2) contentSize = view.getUint16(pos, true) + 256;
  else if (fcsBytes === 4) contentSize = view.getUint32(pos, true);
  else if (fcsBytes === 8)
    contentSize = view.getUint32(pos + 4, true) * 2 ** 32 + view.getUint32(pos, true);
  if (singleSegment) windowSize = contentSize ?? 0;
  const blockMax = Math.min(windowSize, BLOCK_SIZE_MAX);

  pos = headerEnd;
  let blockBound = 0;
  for (;;) {
    if (pos + 3 > data.length) return { error: "a block header is cut short (truncated data)" };
    const header = data[pos] | (data[pos + 1] << 8) | (data[pos + 2] << 16);
    pos += 3;
    const last = header & 1;
    const type = (header >> 1) & 3;
    const size = header >>> 3;
    if (type === 3) return { error: "a block has the reserved block type" };
    if (size > blockMax)
      return {
        error: `a block of ${size} bytes exceeds the frame's block size limit of ${blockMax}`,
      };
    const stored = type === 1 ? 1 : size; // an RLE block stores one byte, repeated `size` times
    if (pos + stored > data.length)
      return { error: "a block runs past the end of the data (truncated data)" };
    pos += stored;
    blockBound += type === 2 ? blockMax : size;
    if (last) break;
  }
  if (hasChecksum) {
    if (pos + 4 > data.length) return { error: "the frame's checksum is missing (truncated data)" };
    pos += 4;
  }
  return { start, end: pos, headerEnd, contentSize, blockBound };
}

/**
 * A copy of `frame` whose header declares `contentSize` (as an 8-byte Frame_Content_Size field).
 * libzstd then decodes into a buffer of exactly that size and fails on any other length, which
 * bounds a frame that did not state its size.
 */
export function withContentSize(
  data: Uint8Array,
  frame: ZstdFrame,
  contentSize: number,
): Uint8Array {
  const descriptorAt = frame.start + 4;
  const descriptor = data[descriptorAt];
  if (descriptor >> 6 !== 0 || descriptor & 0x20)
    throw new Error("the frame already declares its content size");
  const out = new Uint8Array(frame.end - frame.start + 8);
  out.set(data.subarray(frame.start, frame.headerEnd));
  out[4] = descriptor | 0xc0;
  const view = new DataView(out.buffer);
  const at = frame.headerEnd - frame.start;
  view.setUint32(at, contentSize >>> 0, true);
  view.setUint32(at + 4, Math.floor(contentSize / 2 ** 32), true);
  out.set(data.subarray(frame.headerEnd, frame.end), at + 8);
  return out;
}
