import { blosclzCompress } from "@z/compression/blosclz";
import { zlibCompressSync } from "@z/compression/deflate-sync";
import { lz4CompressBlock, lz4hcCompressBlock } from "@z/compression/lz4";
import { snappyCompress, snappyMaxCompressedLength } from "@z/compression/snappy";
import { zstdCompressWasm } from "@z/compression/zstd";
import { formatValue } from "@z/errors";
import { CodecConfigError, CodecError } from "../errors.js";
import { bitshuffleBlock } from "./bitshuffle.js";
import { computeBlocksize, MIN_BUFFERSIZE, splitBlock } from "./blocksize.js";
import {
  BLOSC_CNAMES,
  BLOSC_HEADER_SIZE,
  BLOSC_MAX_BUFFERSIZE,
  BLOSC_MAX_TYPESIZE,
  BLOSC_VERSION_FORMAT,
  type BloscCname,
  compFormatOf,
  FLAG_BIT_SHUFFLE,
  FLAG_BYTE_SHUFFLE,
  FLAG_DONT_SPLIT,
  FLAG_MEMCPYED,
  writeInt32,
} from "./header.js";
import { shuffleBlock } from "./shuffle.js";

/** How to write a Blosc1 frame. */
export interface BloscCompressOptions {
  /** The inner compressor. */
  cname: BloscCname;
  /** Compression level, 0 (store uncompressed) to 9. */
  clevel: number;
  /** The shuffle filter: 0 none, 1 byte shuffle, 2 bit shuffle. */
  shuffle: 0 | 1 | 2;
  /** The element size the shuffle works with (sizes above 255 are treated as 1, as c-blosc does). */
  typesize: number;
  /** The block size; 0 or absent lets c-blosc's heuristic choose. */
  blocksize?: number;
}

/**
 * Compresses one split stream `src` into the frame's room `dst`; 0 means "could not compress
 * within `dst.length` bytes".
 */
type StreamCompressor = (src: Uint8Array, dst: Uint8Array) => number | Promise<number>;

/**
 * Writes `data` as a Blosc1 frame the way c-blosc 1.21 does: its block size heuristic and split
 * rule, the shuffle with the real type size, one stream per byte of element where c-blosc
 * splits, raw streams where compression does not pay, and an uncompressed ("memcpyed") frame
 * when the whole does not compress.
 * @throws CodecConfigError for invalid options, CodecError for inputs larger than Blosc1 allows
 */
export async function bloscCompress(
  data: Uint8Array,
  options: BloscCompressOptions,
): Promise<Uint8Array> {
  const { cname, clevel, shuffle } = options;
  checkCompressOptions(options);
  const nbytes = data.length;
  if (nbytes > BLOSC_MAX_BUFFERSIZE) {
    throw new CodecError(
      `blosc: cannot compress ${nbytes} bytes; a Blosc1 frame holds at most ${BLOSC_MAX_BUFFERSIZE}`,
    );
  }
  const typesize = options.typesize > BLOSC_MAX_TYPESIZE ? 1 : options.typesize;
  const blocksize = computeBlocksize(cname, clevel, typesize, nbytes, options.blocksize ?? 0);
  const dontSplit = !splitBlock(cname, typesize, blocksize);
  let flags = (dontSplit ? FLAG_DONT_SPLIT : 0) | (compFormatOf(cname) << 5);
  if (shuffle === 1) flags |= FLAG_BYTE_SHUFFLE;
  if (shuffle === 2) flags |= FLAG_BIT_SHUFFLE;

  // numcodecs gives c-blosc room for the data plus the header: frames never grow past that.
  const destsize = nbytes + BLOSC_HEADER_SIZE;
  const out = new Uint8Array(destsize);
  out[0] = BLOSC_VERSION_FORMAT;
  out[1] = 1;
  out[3] = typesize;
  writeInt32(out, 4, nbytes);
  writeInt32(out, 8, blocksize);

  let cbytes = 0;
  if (clevel !== 0 && nbytes >= MIN_BUFFERSIZE) {
    const frame: Frame = { data, out, typesize, blocksize, shuffle, dontSplit, destsize };
    cbytes = await compressBlocks(frame, streamCompressor(cname, clevel, dontSplit));
  }
  if (cbytes === 0) {
    flags |= FLAG_MEMCPYED;
    out.set(data, BLOSC_HEADER_SIZE);
    cbytes = destsize;
  }
  out[2] = flags;
  writeInt32(out, 12, cbytes);
  // Do not keep a mostly empty buffer alive behind a small frame.
  return cbytes < destsize * 0.75 ? out.slice(0, cbytes) : out.subarray(0, cbytes);
}

function checkCompressOptions(options: BloscCompressOptions): void {
  const { cname, clevel, shuffle, typesize, blocksize } = options;
  if (!BLOSC_CNAMES.includes(cname)) {
    throw new CodecConfigError(
      `blosc: unknown cname ${formatValue(cname)}; expected one of ${BLOSC_CNAMES.join(", ")}`,
    );
  }
  if (!Number.isInteger(clevel) || clevel < 0 || clevel > 9) {
    throw new CodecConfigError(`blosc: clevel must be an integer from 0 to 9, got ${clevel}`);
  }
  if (shuffle !== 0 && shuffle !== 1 && shuffle !== 2) {
    throw new CodecConfigError(`blosc: shuffle must be 0, 1 or 2, got ${shuffle}`);
  }
  if (!Number.isInteger(typesize) || typesize < 1) {
    throw new CodecConfigError(`blosc: typesize must be a positive integer, got ${typesize}`);
  }
  if (blocksize !== undefined && (!Number.isInteger(blocksize) || blocksize < 0)) {
    throw new CodecConfigError(`blosc: blocksize must be a non-negative integer, got ${blocksize}`);
  }
}

interface Frame {
  data: Uint8Array;
  out: Uint8Array;
  typesize: number;
  blocksize: number;
  shuffle: 0 | 1 | 2;
  dontSplit: boolean;
  destsize: number;
}

function streamCompressor(cname: BloscCname, clevel: number, dontSplit: boolean): StreamCompressor {
  switch (cname) {
    case "blosclz":
      return (src, dst) => blosclzCompress(src, dst, clevel, !dontSplit);
    case "lz4":
      // c-blosc trades ratio for speed at low levels through LZ4's acceleration.
      return (src, dst) => lz4CompressBlock(src, dst, 10 - clevel);
    case "lz4hc":
      return (src, dst) => lz4hcCompressBlock(src, dst, clevel);
    case "snappy":
      return snappyCompress;
    case "zlib":
      // zlib's compress2, which fails when the stream does not fit.
      return (src, dst) => placed(zlibCompressSync(src, clevel), dst);
    case "zstd":
      // c-blosc 1.21's zstd level for a Blosc clevel: 2 * clevel - 1, and the maximum, 22, at 9.
      return async (src, dst) =>
        placed(await zstdCompressWasm(src, clevel < 9 ? clevel * 2 - 1 : 22), dst);
  }
}

/** Copies a compressed stream into its room in the frame; 0 when it does not fit. */
function placed(compressed: Uint8Array, dst: Uint8Array): number {
  if (compressed.length > dst.length) return 0;
  dst.set(compressed);
  return compressed.length;
}

/** Compresses every block; returns the frame size, or 0 when the data does not fit compressed. */
async function compressBlocks(frame: Frame, compress: StreamCompressor): Promise<number> {
  const { data, out, blocksize } = frame;
  const nbytes = data.length;
  const nblocks = Math.ceil(nbytes / blocksize);
  const leftover = nbytes % blocksize;
  const scratch = frame.shuffle !== 0 ? new Uint8Array(blocksize) : undefined;
  let ntbytes = BLOSC_HEADER_SIZE + 4 * nblocks;
  for (let j = 0; j < nblocks; j++) {
    writeInt32(out, BLOSC_HEADER_SIZE + 4 * j, ntbytes);
    const isLeftover = j === nblocks - 1 && leftover > 0;
    const bsize = isLeftover ? leftover : blocksize;
    const cbytes = await compressBlock(
      frame,
      compress,
      j * blocksize,
      bsize,
      isLeftover,
      ntbytes,
      scratch,
    );
    if (cbytes === 0) return 0;
    ntbytes += cbytes;
  }
  return ntbytes;
}

/** c-blosc's `blosc_c`: shuffles one block and compresses its streams at `ntbytes` in the frame. */
async function compressBlock(
  frame: Frame,
  compress: StreamCompressor,
  offset: number,
  bsize: number,
  isLeftover: boolean,
  ntbytes: number,
  scratch: Uint8Array | undefined,
): Promise<number> {
  const { data, out, typesize, destsize } = frame;
  let src = data;
  let srcOff = offset;
  if (scratch && frame.shuffle === 1 && typesize > 1) {
    shuffleBlock(typesize, bsize, data, offset, scratch, 0);
    src = scratch;
    srcOff = 0;
  } else if (scratch && frame.shuffle === 2 && bsize >= typesize) {
    bitshuffleBlock(typesize, bsize, data, offset, scratch, 0);
    src = scratch;
    srcOff = 0;
  }
  const nsplits = !frame.dontSplit && !isLeftover ? typesize : 1;
  const neblock = Math.floor(bsize / nsplits);
  const snappy = compress === snappyCompress;
  let pos = ntbytes;
  for (let s = 0; s < nsplits; s++) {
    const sizeAt = pos;
    pos += 4;
    let maxout = snappy ? snappyMaxCompressedLength(neblock) : neblock;
    if (pos + maxout > destsize) {
      maxout = destsize - pos;
      if (maxout <= 0) return 0;
    }
    const stream = src.subarray(srcOff + s * neblock, srcOff + (s + 1) * neblock);
    const result = compress(stream, out.subarray(pos, pos + maxout));
    let cbytes = typeof result === "number" ? result : await result;
    if (cbytes === 0 || cbytes === neblock) {
      // Not compressible: store the stream raw, if it fits.
      if (pos + neblock > destsize) return 0;
      out.set(stream, pos);
      cbytes = neblock;
    }
    writeInt32(out, sizeAt, cbytes);
    pos += cbytes;
  }
  return pos - ntbytes;
}
