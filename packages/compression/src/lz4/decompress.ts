import { DecompressionError } from "../errors.js";
import { simdKernels } from "../simd/load.js";
import { copyBytes, copyMatch, lengthBytes } from "./copy.js";

const MINMATCH = 4;

/**
 * Decodes one raw LZ4 block (no frame) into `dst` from `start` and returns where the decoded
 * data ends. Matches may reach back into `dst[0, start)` (the linked blocks of an LZ4 frame).
 * Every length and offset is checked against both buffers, so hostile input can neither read
 * nor write out of bounds nor loop: each sequence consumes at least one input byte. The block
 * must end with a sequence of literals only, as LZ4's format requires.
 *
 * Once the SIMD kernels are loaded (the Blosc and `lz4` codecs load them on first use), the
 * block is decoded in WebAssembly, where the same checks accept and reject the same blocks.
 * @throws DecompressionError for a malformed block or one that does not fit `dst`
 */
export function lz4DecompressBlock(src: Uint8Array, dst: Uint8Array, start = 0): number {
  const end = simdKernels()?.lz4DecodeBlock(src, dst, start);
  // A rejected block is decoded again in JavaScript, which says what is wrong with it.
  if (end !== undefined && end >= 0) return end;
  return decodeScalar(src, dst, start);
}

/** {@link lz4DecompressBlock} in JavaScript. */
function decodeScalar(src: Uint8Array, dst: Uint8Array, start: number): number {
  const end = src.length;
  const dstEnd = dst.length;
  let ip = 0;
  let op = start;
  // Unaligned 32-bit reads and writes, for copies 8 bytes at a time.
  const from = new DataView(src.buffer, src.byteOffset, src.byteLength);
  const to = new DataView(dst.buffer, dst.byteOffset, dst.byteLength);
  for (;;) {
    if (ip >= end) throw lz4Error("the block ends inside a sequence (truncated data)");
    const token = src[ip++];
    let lit = token >>> 4;
    if (lit === 15) {
      const extra = lengthBytes(src, ip, end);
      if (extra < 0) throw lz4Error("the block ends inside a literal length (truncated data)");
      lit += extra;
      ip += Math.floor(extra / 255) + 1;
    }
    if (ip + lit > end) throw lz4Error("literals run past the end of the block (truncated data)");
    if (op + lit > dstEnd)
      throw lz4Error(`the block decodes to more than the ${dstEnd} bytes there is room for`);
    if (lit <= 16 && ip + 16 <= end && op + 16 <= dstEnd) {
      // Short literals, 8 bytes at a time: may write up to 7 bytes past them, inside the
      // output's room, which what follows overwrites (a block that stops short is an error,
      // its output never used).
      for (let i = 0; i < lit; i += 8) {
        to.setUint32(op + i, from.getUint32(ip + i, true), true);
        to.setUint32(op + i + 4, from.getUint32(ip + i + 4, true), true);
      }
      op += lit;
    } else {
      op = copyBytes(src, ip, dst, op, lit);
    }
    ip += lit;
    if (ip === end) break; // the last sequence has literals only
    if (ip + 2 > end) throw lz4Error("the block ends inside a match offset (truncated data)");
    const offset = src[ip] | (src[ip + 1] << 8);
    ip += 2;
    if (offset === 0 || offset > op)
      throw lz4Error(`a match refers to ${offset} bytes back, before the start of the data`);
    let len = token & 15;
    if (len === 15) {
      const extra = lengthBytes(src, ip, end);
      if (extra < 0) throw lz4Error("the block ends inside a match length (truncated data)");
      len += extra;
      ip += Math.floor(extra / 255) + 1;
    }
    len += MINMATCH;
    if (op + len > dstEnd)
      throw lz4Error(`the block decodes to more than the ${dstEnd} bytes there is room for`);
    if (offset >= 8 && len <= 64 && op + len + 8 <= dstEnd) {
      // 8 bytes at a time: each copy reads bytes at least 8 back, already final, so overlapping
      // matches repeat as they should; the overshoot (up to 7 bytes) stays inside the output's
      // room and is overwritten by what follows.
      const stop = op + len;
      for (let ref = op - offset; op < stop; op += 8, ref += 8) {
        to.setUint32(op, to.getUint32(ref, true), true);
        to.setUint32(op + 4, to.getUint32(ref + 4, true), true);
      }
      op = stop;
    } else {
      op = copyMatch(dst, op, offset, len);
    }
  }
  return op;
}

function lz4Error(problem: string): DecompressionError {
  return new DecompressionError("lz4", problem);
}
