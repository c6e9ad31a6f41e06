import { blosclzDecompress } from "@z/compression/blosclz";
import { zlibDecompressInto } from "@z/compression/deflate-sync";
import { simdKernels } from "@z/compression/internal";
import { lz4DecompressBlock } from "@z/compression/lz4";
import { snappyDecompress } from "@z/compression/snappy";
import { zstdDecompress } from "@z/compression/zstd";
import type { IndexRange } from "@z/ndarray";
import { translatingErrors } from "../compressors/decompression.js";
import { CodecError, DecodeError } from "../errors.js";
import type { BytesDecodeOptions } from "../types.js";
import { bitunshuffleBlock } from "./bitshuffle.js";
import { MAX_SPLITS, MIN_BUFFERSIZE } from "./blocksize.js";
import {
  BLOSC_HEADER_SIZE,
  type BloscHeader,
  FLAG_BIT_SHUFFLE,
  FLAG_BYTE_SHUFFLE,
  readBloscHeader,
  readInt32,
  validateBloscHeader,
} from "./header.js";
import { unshuffleBlock } from "./shuffle.js";

/** Decodes one stream `src` into `dst`, returning the number of bytes written. */
type StreamDecoder = (src: Uint8Array, dst: Uint8Array) => number;

const SYNC_DECODERS: Record<string, StreamDecoder> = {
  blosclz: blosclzDecompress,
  lz4: (src, dst) => lz4DecompressBlock(src, dst),
  snappy: snappyDecompress,
  zlib: zlibDecompressInto,
};

/** The layout of one block: its size, where it goes, how many streams it has. */
interface Block {
  index: number;
  bsize: number;
  nsplits: number;
  neblock: number;
  unshuffle: 0 | 1 | 2;
}

/**
 * Decodes a Blosc1 frame as c-blosc 1.x writes it (every compressor, byte and bit shuffle,
 * split and unsplit blocks, uncompressed frames). The header, every block offset and every
 * stream size are checked against the input and the bound before anything is decoded; each
 * stream must decode to exactly its size. With `options.ranges`, only the blocks those byte
 * ranges touch are decoded, as c-blosc's `blosc_getitem` does; with `options.into`, the bytes are
 * decoded there (see {@link decodeBloscFrame}).
 * @throws DecodeError for anything malformed, truncated or larger than the bound
 */
export async function bloscDecompress(
  frame: Uint8Array,
  options: BytesDecodeOptions,
): Promise<Uint8Array> {
  return decodeBloscFrame(frame, options);
}

/**
 * {@link bloscDecompress}, synchronous for every compressor but zstd (whose WebAssembly decoder
 * is asynchronous).
 *
 * `options.ranges` (byte ranges of the decoded data) decodes only the blocks they touch, each
 * written at its place in a full-size result; the bytes of other blocks are left as they were
 * (zero in a new buffer, the old contents of `options.into`). The header and the whole block
 * table are checked as for a whole decode, and every touched block is decoded and checked in
 * full; a corrupt stream in a block no range touches goes unnoticed.
 *
 * `options.into` (exactly the decoded size; any view, of a SharedArrayBuffer too, that does not
 * overlap `frame`) receives the decoded bytes and is returned, instead of a new buffer. After a
 * DecodeError its contents are unspecified. Without `into`, an uncompressed frame decodes to a
 * view of `frame`.
 * @throws DecodeError for anything malformed, truncated or larger than the bound, or a header
 *   whose size is not `into`'s; CodecError for ranges outside the decoded data or an `into` of a
 *   size other than `options.expectedSize`
 */
export function decodeBloscFrame(
  frame: Uint8Array,
  options: BytesDecodeOptions,
): Uint8Array | Promise<Uint8Array> {
  const { into, ranges } = options;
  let expectedSize = options.expectedSize;
  if (into !== undefined) {
    if (expectedSize !== undefined && into.length !== expectedSize) {
      throw new CodecError(
        `blosc: the destination has ${into.length} bytes, but the chunk decodes to ${expectedSize}`,
      );
    }
    expectedSize = into.length;
  }
  const header = readBloscHeader(frame);
  validateBloscHeader(header, frame.length, options.maxSize, expectedSize);
  const { nbytes } = header;
  if (ranges !== undefined) checkRanges(ranges, nbytes);
  if (nbytes === 0) return into ?? new Uint8Array(0);
  if (header.memcpyed) return copyStored(frame, nbytes, into, ranges);
  const layout = checkLayout(frame, header);
  const blocks = ranges === undefined ? layout : touchedBlocks(layout, ranges, header.blocksize);
  const inModule = decodeInModule(frame, header, blocks, into);
  if (inModule !== undefined) return inModule;
  const out = into ?? new Uint8Array(nbytes);
  if (header.compressor === "zstd") return decodeZstdBlocks(frame, header, blocks, out);
  const decode = SYNC_DECODERS[header.compressor];
  const tmp = scratchFor(header);
  for (const block of blocks) {
    const dst = block.unshuffle ? tmp : out;
    const dstBase = block.unshuffle ? 0 : block.index * header.blocksize;
    let pos = readInt32(frame, BLOSC_HEADER_SIZE + 4 * block.index);
    for (let s = 0; s < block.nsplits; s++) {
      const cbytes = readInt32(frame, pos);
      pos += 4;
      const at = dstBase + s * block.neblock;
      if (cbytes === block.neblock) {
        dst.set(frame.subarray(pos, pos + cbytes), at);
      } else {
        const n = decodeStream(header, () =>
          decode(frame.subarray(pos, pos + cbytes), dst.subarray(at, at + block.neblock)),
        );
        if (n !== block.neblock) throw shortStream(header, block, n);
      }
      pos += cbytes;
    }
    finishBlock(header, block, tmp, out);
  }
  return out;
}

/**
 * The blocks decoded all in the SIMD kernels' module (LZ4 and BloscLZ frames: one copy of the
 * frame in, one of each run of blocks out, instead of copies for every stream and shuffle), or
 * undefined where the module is not loaded or allowed, the frame would need more of its memory
 * than it may use, or the module rejects a block: the block loop then decodes the frame (again),
 * and its checks tell what is wrong.
 */
function decodeInModule(
  frame: Uint8Array,
  header: BloscHeader,
  blocks: readonly Block[],
  into: Uint8Array | undefined,
): Uint8Array | undefined {
  if (header.compressor !== "lz4" && header.compressor !== "blosclz") return undefined;
  if (blocks.length === 0) return undefined; // nothing to decode: no frame to copy in
  const simd = simdKernels();
  if (simd === undefined) return undefined;
  const indices = blocks.map((block) => block.index);
  const decoded = simd.bloscDecodeBlocks(frame.subarray(0, header.cbytes), indices, into);
  return typeof decoded === "object" ? decoded : undefined;
}

async function decodeZstdBlocks(
  frame: Uint8Array,
  header: BloscHeader,
  blocks: Block[],
  out: Uint8Array,
): Promise<Uint8Array> {
  // Not the shared scratch buffer: other decodes may run while this one awaits.
  const tmp = blocks.some((b) => b.unshuffle) ? new Uint8Array(header.blocksize) : out;
  for (const block of blocks) {
    const dst = block.unshuffle ? tmp : out;
    const dstBase = block.unshuffle ? 0 : block.index * header.blocksize;
    let pos = readInt32(frame, BLOSC_HEADER_SIZE + 4 * block.index);
    for (let s = 0; s < block.nsplits; s++) {
      const cbytes = readInt32(frame, pos);
      pos += 4;
      const stream = frame.subarray(pos, pos + cbytes);
      const size = { maxSize: block.neblock, expectedSize: block.neblock };
      const decoded =
        cbytes === block.neblock
          ? stream
          : await decodeStream(header, () => zstdDecompress(stream, size));
      if (decoded.length !== block.neblock) throw shortStream(header, block, decoded.length);
      dst.set(decoded, dstBase + s * block.neblock);
      pos += cbytes;
    }
    finishBlock(header, block, tmp, out);
  }
  return out;
}

/**
 * The data of an uncompressed frame: a view of it, or copied into `into` (only the ranges, when
 * there are some).
 */
function copyStored(
  frame: Uint8Array,
  nbytes: number,
  into: Uint8Array | undefined,
  ranges: readonly IndexRange[] | undefined,
): Uint8Array {
  const data = frame.subarray(BLOSC_HEADER_SIZE, BLOSC_HEADER_SIZE + nbytes);
  if (into === undefined) return data;
  if (ranges === undefined) into.set(data);
  else for (const [begin, end] of ranges) into.set(data.subarray(begin, end), begin);
  return into;
}

/** Throws unless every range is a range of integers inside `0..nbytes`. */
function checkRanges(ranges: readonly IndexRange[], nbytes: number): void {
  for (const [begin, end] of ranges) {
    if (!Number.isInteger(begin) || !Number.isInteger(end) || begin < 0 || end > nbytes) {
      throw new CodecError(
        `blosc: byte range [${begin}, ${end}) is not inside the ${nbytes} decoded bytes`,
      );
    }
  }
}

/** The blocks that hold a byte of some range, in order. */
function touchedBlocks(
  blocks: readonly Block[],
  ranges: readonly IndexRange[],
  blocksize: number,
): Block[] {
  const touched = new Uint8Array(blocks.length);
  for (const [begin, end] of ranges) {
    if (end <= begin) continue;
    const last = Math.floor((end - 1) / blocksize);
    for (let j = Math.floor(begin / blocksize); j <= last; j++) touched[j] = 1;
  }
  return blocks.filter((block) => touched[block.index] === 1);
}

/** Undoes the shuffle of a block decoded into `tmp`, writing it to its place in `out`. */
function finishBlock(header: BloscHeader, block: Block, tmp: Uint8Array, out: Uint8Array): void {
  const at = block.index * header.blocksize;
  if (block.unshuffle === 1) unshuffleBlock(header.typesize, block.bsize, tmp, 0, out, at);
  else if (block.unshuffle === 2) bitunshuffleBlock(header.typesize, block.bsize, tmp, 0, out, at);
}

/**
 * Checks every block offset and stream size against the frame, without decoding, and returns
 * the blocks' layout. The streams of a block must fit between its start and the frame end.
 */
function checkLayout(frame: Uint8Array, header: BloscHeader): Block[] {
  const { nbytes, blocksize, typesize, cbytes, flags } = header;
  const nblocks = Math.ceil(nbytes / blocksize);
  const leftover = nbytes % blocksize;
  const tableEnd = BLOSC_HEADER_SIZE + 4 * nblocks;
  if (tableEnd > cbytes) {
    throw new DecodeError(
      `blosc: ${nblocks} blocks need a ${4 * nblocks}-byte offset table, but the frame has ${cbytes} bytes; the chunk is truncated or corrupt`,
    );
  }
  const blocks: Block[] = new Array(nblocks);
  for (let j = 0; j < nblocks; j++) {
    const isLeftover = j === nblocks - 1 && leftover > 0;
    const bsize = isLeftover ? leftover : blocksize;
    // c-blosc's rule, including the conditions kept for frames written before the split flag.
    const split =
      !header.dontSplit &&
      typesize <= MAX_SPLITS &&
      Math.floor(bsize / typesize) >= MIN_BUFFERSIZE &&
      !isLeftover;
    const nsplits = split ? typesize : 1;
    if (bsize % nsplits !== 0) {
      throw new DecodeError(
        `blosc: block size ${bsize} is not a multiple of the type size ${typesize} its streams are split by`,
      );
    }
    const unshuffle =
      flags & FLAG_BYTE_SHUFFLE && typesize > 1
        ? 1
        : flags & FLAG_BIT_SHUFFLE && bsize >= typesize
          ? 2
          : 0;
    const block: Block = { index: j, bsize, nsplits, neblock: bsize / nsplits, unshuffle };
    blocks[j] = block;
    let pos = readInt32(frame, BLOSC_HEADER_SIZE + 4 * j);
    if (pos < tableEnd || pos > cbytes - 4) {
      throw new DecodeError(
        `blosc: block ${j} starts at byte ${pos}, outside the data area ${tableEnd}..${cbytes - 4}`,
      );
    }
    for (let s = 0; s < nsplits; s++) {
      if (pos + 4 > cbytes)
        throw new DecodeError(
          `blosc: stream ${s} of block ${j} starts past the end of the frame (byte ${pos} of ${cbytes})`,
        );
      const size = readInt32(frame, pos);
      pos += 4;
      if (size < 0 || size > cbytes - pos) {
        throw new DecodeError(
          `blosc: stream ${s} of block ${j} claims ${size} bytes at byte ${pos}, past the end of the ${cbytes}-byte frame`,
        );
      }
      pos += size;
    }
  }
  return blocks;
}

/** Runs a stream decoder, its DecompressionError told as a corrupt stream of this frame. */
function decodeStream<T>(header: BloscHeader, decode: () => T): T {
  return translatingErrors(
    decode,
    (error) =>
      new DecodeError(`blosc: corrupt ${header.compressor} stream: ${error.problem}`, {
        cause: error,
      }),
  );
}

function shortStream(header: BloscHeader, block: Block, n: number): DecodeError {
  return new DecodeError(
    `blosc: corrupt ${header.compressor} stream in block ${block.index}: it decodes to ${n} bytes, the block needs ${block.neblock}`,
  );
}

let scratch = new Uint8Array(0);
const SCRATCH_KEEP = 8 << 20;

/** A buffer for one shuffled block, reused between calls when it is not too large. */
function scratchFor(header: BloscHeader): Uint8Array {
  if (!(header.flags & (FLAG_BYTE_SHUFFLE | FLAG_BIT_SHUFFLE))) return scratch;
  const size = header.blocksize;
  if (scratch.length >= size) return scratch;
  const buffer = new Uint8Array(size);
  if (size <= SCRATCH_KEEP) scratch = buffer;
  return buffer;
}
