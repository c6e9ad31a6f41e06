import { simdKernels } from "@z/compression/internal";
import { copyTail, shuffleBlock, unshuffleBlock } from "./shuffle.js";

/**
 * Blosc's bit shuffle (the bitshuffle library's layout): for `n` elements of `typesize` bytes,
 * row `8 * j + k` holds bit `k` of byte `j` of every element, `n / 8` bytes per row, element
 * `i` in bit `i % 8` of byte `i / 8`. c-blosc only bit-shuffles when `n` is a multiple of 8;
 * otherwise the block is copied unchanged. Bytes past the last whole element are copied as is.
 *
 * Both directions go through byte planes (the byte shuffle) and transpose 8x8 bit matrices held
 * in two 32-bit words, moving whole words where alignment allows. Handling one byte of element
 * at a time matters: rows are a power of two apart, so touching the rows of several bytes at
 * once makes them compete for the same cache sets. Once the SIMD kernels of `@z/compression`
 * are loaded (the Blosc codec loads them on first use), blocks go through them instead.
 */

const littleEndian = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/** Bit-shuffles `blocksize` bytes of `src` at `srcOff` into `dst` at `dstOff`. */
export function bitshuffleBlock(
  typesize: number,
  blocksize: number,
  src: Uint8Array,
  srcOff: number,
  dst: Uint8Array,
  dstOff: number,
): void {
  const n = Math.floor(blocksize / typesize);
  if (n % 8 !== 0) {
    copyTail(src, srcOff, dst, dstOff, blocksize);
    return;
  }
  if (simdKernels()?.bitshuffleBlock(typesize, blocksize, src, srcOff, dst, dstOff)) return;
  const rowBytes = n >>> 3;
  const whole = n * typesize;
  const planes = planeBuffer(whole);
  shuffleBlock(typesize, whole, src, srcOff, planes, 0);
  const at = dst.byteOffset + dstOff;
  const rows =
    littleEndian && rowBytes % 4 === 0 && at % 4 === 0
      ? new Int32Array(dst.buffer, at, whole >>> 2)
      : undefined;
  const t = new Int32Array(8);
  for (let j = 0; j < typesize; j++) {
    const plane = j * n;
    const row0 = dstOff + 8 * j * rowBytes;
    let g = 0;
    if (rows) {
      // Four groups at a time, then one word per row (4x4 byte transposes).
      const q = rowBytes >>> 2;
      for (let k = 0; k < q; k++, g += 4) {
        for (let m = 0; m < 4; m++) {
          transpose8(planes, plane + 8 * (g + m));
          t[m] = lo8;
          t[m + 4] = hi8;
        }
        const w = 2 * j * rowBytes + k;
        transpose4x4(rows, w, q, t[0], t[1], t[2], t[3]);
        transpose4x4(rows, w + 4 * q, q, t[4], t[5], t[6], t[7]);
      }
    }
    for (; g < rowBytes; g++) {
      transpose8(planes, plane + 8 * g);
      const d = row0 + g;
      for (let k = 0; k < 4; k++) {
        dst[d + k * rowBytes] = lo8 >>> (8 * k);
        dst[d + (k + 4) * rowBytes] = hi8 >>> (8 * k);
      }
    }
  }
  copyTail(src, srcOff + whole, dst, dstOff + whole, blocksize - whole);
}

/** Reverses {@link bitshuffleBlock}. */
export function bitunshuffleBlock(
  typesize: number,
  blocksize: number,
  src: Uint8Array,
  srcOff: number,
  dst: Uint8Array,
  dstOff: number,
): void {
  const n = Math.floor(blocksize / typesize);
  if (n % 8 !== 0) {
    copyTail(src, srcOff, dst, dstOff, blocksize);
    return;
  }
  if (simdKernels()?.bitunshuffleBlock(typesize, blocksize, src, srcOff, dst, dstOff)) return;
  const rowBytes = n >>> 3;
  const whole = n * typesize;
  const planes = planeBuffer(whole);
  const from = src.byteOffset + srcOff;
  const words = littleEndian ? new Int32Array(planes.buffer, 0, whole >>> 2) : undefined;
  const rows =
    words && rowBytes % 4 === 0 && from % 4 === 0
      ? new Int32Array(src.buffer, from, whole >>> 2)
      : undefined;
  const t = new Int32Array(8);
  for (let j = 0; j < typesize; j++) {
    const plane = j * n;
    const row0 = srcOff + 8 * j * rowBytes;
    let g = 0;
    if (rows && words) {
      // Four groups at a time: one word from each of the 8 rows, 4x4 byte transposes give the
      // 8 bytes of each group, untransposed into two words of the plane.
      const q = rowBytes >>> 2;
      for (let k = 0; k < q; k++, g += 4) {
        const w = 2 * j * rowBytes + k;
        transpose4x4(t, 0, 1, rows[w], rows[w + q], rows[w + 2 * q], rows[w + 3 * q]);
        transpose4x4(t, 4, 1, rows[w + 4 * q], rows[w + 5 * q], rows[w + 6 * q], rows[w + 7 * q]);
        for (let m = 0; m < 4; m++) {
          transposeWords(t[m], t[m + 4]);
          const o = (plane >>> 2) + 2 * (g + m);
          words[o] = lo8;
          words[o + 1] = hi8;
        }
      }
    }
    for (; g < rowBytes; g++) {
      const s = row0 + g;
      let lo = 0;
      let hi = 0;
      for (let k = 3; k >= 0; k--) {
        lo = (lo << 8) | src[s + k * rowBytes];
        hi = (hi << 8) | src[s + (k + 4) * rowBytes];
      }
      transposeWords(lo, hi);
      const p = plane + 8 * g;
      for (let k = 0; k < 4; k++) {
        planes[p + k] = lo8 >>> (8 * k);
        planes[p + k + 4] = hi8 >>> (8 * k);
      }
    }
  }
  unshuffleBlock(typesize, whole, planes, 0, dst, dstOff);
  copyTail(src, srcOff + whole, dst, dstOff + whole, blocksize - whole);
}

/** Outputs of the 8x8 bit transposes: the low and high 4 bytes of the result. */
let lo8 = 0;
let hi8 = 0;

/** Transposes the 8x8 bit matrix in bytes `p..p+7` of `bytes` (byte = row) into lo8/hi8. */
function transpose8(bytes: Uint8Array, p: number): void {
  const lo = bytes[p] | (bytes[p + 1] << 8) | (bytes[p + 2] << 16) | (bytes[p + 3] << 24);
  const hi = bytes[p + 4] | (bytes[p + 5] << 8) | (bytes[p + 6] << 16) | (bytes[p + 7] << 24);
  transposeWords(lo, hi);
}

/**
 * Transposes the 8x8 bit matrix whose rows are the bytes of (lo, hi), little-endian, so that
 * byte k of the result holds bit k of every row (its own inverse); result in lo8/hi8.
 */
function transposeWords(lo: number, hi: number): void {
  let t = (lo ^ (lo >>> 7)) & 0x00aa00aa;
  lo ^= t ^ (t << 7);
  t = (hi ^ (hi >>> 7)) & 0x00aa00aa;
  hi ^= t ^ (t << 7);
  t = (lo ^ (lo >>> 14)) & 0x0000cccc;
  lo ^= t ^ (t << 14);
  t = (hi ^ (hi >>> 14)) & 0x0000cccc;
  hi ^= t ^ (t << 14);
  t = (lo ^ ((lo >>> 28) | (hi << 4))) & 0xf0f0f0f0;
  lo8 = lo ^ t;
  hi8 = hi ^ (t >>> 4);
}

/** Writes the 4x4 byte transpose of the words a, b, c, d to `out[o]`, `out[o + stride]`, ... */
function transpose4x4(
  out: Int32Array,
  o: number,
  stride: number,
  a: number,
  b: number,
  c: number,
  d: number,
): void {
  const ab02 = (a & 0x00ff00ff) | ((b & 0x00ff00ff) << 8);
  const ab13 = ((a >>> 8) & 0x00ff00ff) | (b & 0xff00ff00);
  const cd02 = (c & 0x00ff00ff) | ((d & 0x00ff00ff) << 8);
  const cd13 = ((c >>> 8) & 0x00ff00ff) | (d & 0xff00ff00);
  out[o] = (ab02 & 0xffff) | (cd02 << 16);
  out[o + stride] = (ab13 & 0xffff) | (cd13 << 16);
  out[o + 2 * stride] = (ab02 >>> 16) | (cd02 & 0xffff0000);
  out[o + 3 * stride] = (ab13 >>> 16) | (cd13 & 0xffff0000);
}

let planeScratch = new Uint8Array(0);

/** A buffer for the byte planes of one block, reused between calls when not too large. */
function planeBuffer(size: number): Uint8Array {
  if (planeScratch.length >= size) return planeScratch;
  const buffer = new Uint8Array(size);
  if (size <= 8 << 20) planeScratch = buffer;
  return buffer;
}
