import { BLOSC_MAX_BLOCKSIZE, type BloscCname } from "./header.js";

/**
 * c-blosc 1.21's block size heuristic and split rule (the default "forward compatible" split
 * mode). Both decide the frame layout, so reproducing them is what makes our frames identical
 * to numcodecs'.
 */

/** Blocks smaller than this are never split; buffers smaller than this are stored raw. */
export const MIN_BUFFERSIZE = 128;
/** The largest type size whose blocks are split into one stream per byte. */
export const MAX_SPLITS = 16;
const L1 = 32 * 1024;

/** Codecs meant for high compression ratios get larger blocks. */
function isHighRatio(cname: BloscCname): boolean {
  return cname === "lz4hc" || cname === "zlib" || cname === "zstd";
}

/**
 * Whether blocks are split into `typesize` streams (BLOSC_FORWARD_COMPAT_SPLIT): every codec
 * but zstd, for type sizes up to 16 and at least 128 elements per block.
 */
export function splitBlock(cname: BloscCname, typesize: number, blocksize: number): boolean {
  return (
    cname !== "zstd" && typesize <= MAX_SPLITS && Math.floor(blocksize / typesize) >= MIN_BUFFERSIZE
  );
}

/** c-blosc's `compute_blocksize`: the block size for `nbytes` bytes (`forced` 0 means automatic). */
export function computeBlocksize(
  cname: BloscCname,
  clevel: number,
  typesize: number,
  nbytes: number,
  forced: number,
): number {
  if (nbytes < typesize) return 1;
  let blocksize = nbytes;
  if (forced) {
    blocksize = Math.min(Math.max(forced, MIN_BUFFERSIZE), BLOSC_MAX_BLOCKSIZE);
  } else if (nbytes >= L1) {
    blocksize = L1;
    if (isHighRatio(cname)) blocksize *= 2;
    switch (clevel) {
      case 0:
        blocksize /= 4;
        break;
      case 1:
        blocksize /= 2;
        break;
      case 2:
        break;
      case 3:
        blocksize *= 2;
        break;
      case 4:
      case 5:
        blocksize *= 4;
        break;
      case 6:
      case 7:
      case 8:
        blocksize *= 8;
        break;
      default:
        blocksize *= 8;
        if (isHighRatio(cname)) blocksize *= 2;
        break;
    }
  }
  if (clevel > 0 && splitBlock(cname, typesize, blocksize)) {
    if (blocksize > 1 << 18) blocksize = 1 << 18;
    blocksize *= typesize;
    if (blocksize < 1 << 16) blocksize = 1 << 16;
    if (blocksize > 1 << 20) blocksize = 1 << 20;
  }
  if (blocksize > nbytes) blocksize = nbytes;
  if (blocksize > typesize) blocksize = Math.floor(blocksize / typesize) * typesize;
  return blocksize;
}
