/**
 * Blosc's byte shuffle: a block of `n` elements of `typesize` bytes becomes `typesize` planes of
 * `n` bytes (all first bytes, then all second bytes, ...). Bytes past the last whole element are
 * copied unchanged at the end, as c-blosc does. Once the SIMD kernels of `@z/compression` are
 * loaded (the Blosc codec loads them on first use), blocks go through them instead.
 */
import { simdKernels } from "@z/compression/internal";

const littleEndian = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/** Shuffles `blocksize` bytes of `src` at `srcOff` into `dst` at `dstOff`. */
export function shuffleBlock(
  typesize: number,
  blocksize: number,
  src: Uint8Array,
  srcOff: number,
  dst: Uint8Array,
  dstOff: number,
): void {
  if (typesize === 1) {
    copyTail(src, srcOff, dst, dstOff, blocksize);
    return;
  }
  if (simdKernels()?.shuffleBlock(typesize, blocksize, src, srcOff, dst, dstOff)) return;
  const n = Math.floor(blocksize / typesize);
  const whole = n * typesize;
  const from = src.byteOffset + srcOff;
  const at = dst.byteOffset + dstOff;
  let done = 0;
  if (littleEndian && typesize % 4 === 0 && at % 4 === 0 && from % 4 === 0 && n % 4 === 0) {
    // Four elements at a time, one 32-bit word of each: a 4x4 byte transpose gives four planes' words.
    const input = new Uint32Array(src.buffer, from, whole >>> 2);
    const planes = new Uint32Array(dst.buffer, at, whole >>> 2);
    const words = typesize >>> 2;
    const q = n >>> 2;
    for (let w = 0; w < words; w++) {
      const p0 = 4 * w * q;
      for (let k = 0, i = w; k < q; k++, i += 4 * words) {
        const a = input[i];
        const b = input[i + words];
        const c = input[i + 2 * words];
        const d = input[i + 3 * words];
        const ab02 = (a & 0x00ff00ff) | ((b & 0x00ff00ff) << 8);
        const ab13 = ((a >>> 8) & 0x00ff00ff) | (b & 0xff00ff00);
        const cd02 = (c & 0x00ff00ff) | ((d & 0x00ff00ff) << 8);
        const cd13 = ((c >>> 8) & 0x00ff00ff) | (d & 0xff00ff00);
        planes[p0 + k] = (ab02 & 0xffff) | (cd02 << 16);
        planes[p0 + q + k] = (ab13 & 0xffff) | (cd13 << 16);
        planes[p0 + 2 * q + k] = (ab02 >>> 16) | (cd02 & 0xffff0000);
        planes[p0 + 3 * q + k] = (ab13 >>> 16) | (cd13 & 0xffff0000);
      }
    }
    done = n;
  } else if (typesize === 2) {
    const p1 = dstOff + n;
    for (let i = 0, s = srcOff; i < n; i++, s += 2) {
      dst[dstOff + i] = src[s];
      dst[p1 + i] = src[s + 1];
    }
    done = n;
  } else if (typesize === 4) {
    const p1 = dstOff + n;
    const p2 = p1 + n;
    const p3 = p2 + n;
    for (let i = 0, s = srcOff; i < n; i++, s += 4) {
      dst[dstOff + i] = src[s];
      dst[p1 + i] = src[s + 1];
      dst[p2 + i] = src[s + 2];
      dst[p3 + i] = src[s + 3];
    }
    done = n;
  }
  if (done < n) {
    for (let j = 0; j < typesize; j++) {
      const plane = dstOff + j * n;
      for (let i = 0, s = srcOff + j; i < n; i++, s += typesize) dst[plane + i] = src[s];
    }
  }
  copyTail(src, srcOff + whole, dst, dstOff + whole, blocksize - whole);
}

/** Reverses {@link shuffleBlock}: planes in `src` at `srcOff`, elements out to `dst` at `dstOff`. */
export function unshuffleBlock(
  typesize: number,
  blocksize: number,
  src: Uint8Array,
  srcOff: number,
  dst: Uint8Array,
  dstOff: number,
): void {
  if (typesize === 1) {
    copyTail(src, srcOff, dst, dstOff, blocksize);
    return;
  }
  if (simdKernels()?.unshuffleBlock(typesize, blocksize, src, srcOff, dst, dstOff)) return;
  const n = Math.floor(blocksize / typesize);
  const whole = n * typesize;
  const at = dst.byteOffset + dstOff;
  const from = src.byteOffset + srcOff;
  let done = 0;
  if (littleEndian && typesize % 4 === 0 && at % 4 === 0 && from % 4 === 0 && n % 4 === 0) {
    // Four planes at a time, four elements at a time: 4x4 byte transposes of 32-bit words.
    const planes = new Uint32Array(src.buffer, from, whole >>> 2);
    const out = new Uint32Array(dst.buffer, at, whole >>> 2);
    const words = typesize >>> 2;
    const q = n >>> 2;
    for (let w = 0; w < words; w++) {
      const p0 = 4 * w * q;
      const p1 = p0 + q;
      const p2 = p1 + q;
      const p3 = p2 + q;
      for (let k = 0, o = w; k < q; k++, o += 4 * words) {
        const a = planes[p0 + k];
        const b = planes[p1 + k];
        const c = planes[p2 + k];
        const d = planes[p3 + k];
        const ab02 = (a & 0x00ff00ff) | ((b & 0x00ff00ff) << 8);
        const ab13 = ((a >>> 8) & 0x00ff00ff) | (b & 0xff00ff00);
        const cd02 = (c & 0x00ff00ff) | ((d & 0x00ff00ff) << 8);
        const cd13 = ((c >>> 8) & 0x00ff00ff) | (d & 0xff00ff00);
        out[o] = (ab02 & 0xffff) | (cd02 << 16);
        out[o + words] = (ab13 & 0xffff) | (cd13 << 16);
        out[o + 2 * words] = (ab02 >>> 16) | (cd02 & 0xffff0000);
        out[o + 3 * words] = (ab13 >>> 16) | (cd13 & 0xffff0000);
      }
    }
    done = n;
  } else if (littleEndian && typesize === 2 && at % 2 === 0) {
    const out = new Uint16Array(dst.buffer, at, n);
    const p1 = srcOff + n;
    for (let i = 0; i < n; i++) out[i] = src[srcOff + i] | (src[p1 + i] << 8);
    done = n;
  }
  if (done < n) {
    for (let j = 0; j < typesize; j++) {
      const plane = srcOff + j * n;
      for (let i = done, d = dstOff + done * typesize + j; i < n; i++, d += typesize)
        dst[d] = src[plane + i];
    }
  }
  copyTail(src, srcOff + whole, dst, dstOff + whole, blocksize - whole);
}

/** Copies a short run of bytes (the tail past the last whole element, or a whole small block). */
export function copyTail(
  src: Uint8Array,
  srcOff: number,
  dst: Uint8Array,
  dstOff: number,
  length: number,
): void {
  if (length <= 0) return;
  if (length < 32) {
    for (let i = 0; i < length; i++) dst[dstOff + i] = src[srcOff + i];
  } else {
    dst.set(src.subarray(srcOff, srcOff + length), dstOff);
  }
}
