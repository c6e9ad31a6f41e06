// The SIMD kernels as synchronous functions over the caller's buffers: each call copies its
// input into the module's memory, runs there and copies the result out (memory.copy-fast, far
// cheaper than the scalar loops it replaces).
import type { WasmInstance, WasmMemory } from "./wasm-api.js";

/** The functions the WebAssembly module exports (pointers are offsets into its memory). */
interface KernelExports {
  memory: WasmMemory;
  __heap_base: { value: number };
  shuffle(typesize: number, blocksize: number, src: number, dst: number): void;
  unshuffle(typesize: number, blocksize: number, src: number, dst: number): void;
  bitshuffle(typesize: number, blocksize: number, src: number, dst: number, scratch: number): void;
  bitunshuffle(
    typesize: number,
    blocksize: number,
    src: number,
    dst: number,
    scratch: number,
  ): void;
  lz4_decode_block(src: number, srcLen: number, dst: number, dstLen: number, start: number): number;
  blosc_decode_blocks(
    frame: number,
    frameLen: number,
    blocks: number,
    count: number,
    out: number,
    outLen: number,
    scratch: number,
    scratchLen: number,
  ): number;
}

/**
 * The most memory one call may use in the module. The module's memory never shrinks, so a call
 * that needs more (a block or chunk of well over 100 MB) runs in JavaScript instead of keeping
 * that much memory for the life of the thread.
 */
export const SIMD_MEMORY_LIMIT = 128 << 20;

/** LZ4 matches reach back at most this far: the earlier output a linked block may need. */
const LZ4_WINDOW = 65536;

const PAGE = 65536;

/** A block kernel: the arguments of the JavaScript one; false when the block is too large for it. */
export type BlockKernel = (
  typesize: number,
  blocksize: number,
  src: Uint8Array,
  srcOff: number,
  dst: Uint8Array,
  dstOff: number,
) => boolean;

/**
 * The SIMD kernels of one WebAssembly instance. Block kernels take the arguments of their
 * JavaScript counterparts (`@z/codecs`' Blosc shuffles) and return false, having done nothing,
 * when the block needs more than {@link SIMD_MEMORY_LIMIT}.
 */
export interface SimdKernels {
  /** Blosc's byte shuffle of one block. */
  shuffleBlock: BlockKernel;
  /** The inverse of the byte shuffle. */
  unshuffleBlock: BlockKernel;
  /** Blosc's bit shuffle of one block. */
  bitshuffleBlock: BlockKernel;
  /** The inverse of the bit shuffle. */
  bitunshuffleBlock: BlockKernel;
  /**
   * Decodes one raw LZ4 block into `dst` from `start` (earlier output in `dst[0, start)`), as
   * `lz4DecompressBlock` does: returns where the decoded data ends, a negative number when the
   * block is corrupt (`dst` then holds anything), or undefined, having done nothing, when the
   * buffers need more than {@link SIMD_MEMORY_LIMIT}.
   */
  lz4DecodeBlock(src: Uint8Array, dst: Uint8Array, start: number): number | undefined;
  /**
   * Decodes blocks of a Blosc1 frame whose streams are LZ4 or BloscLZ, all in the module: the
   * frame is copied in once and each decoded block out once. `blocks` are the indices of the
   * blocks to decode, ascending; each lands at its place in `dst` (which must be as long as the
   * decoded data; the bytes of other blocks are left as they are), or in a new buffer (zero
   * outside them). The header, the blocks' table entries and their streams are checked as
   * `@z/codecs`' JavaScript decoder checks them, which the caller must also have done for the
   * header and the whole table. Returns the decoded data; a negative number when the frame is
   * one the module does not decode (another compressor, stored uncompressed, empty) or a check
   * fails (the blocks asked for then hold anything in `dst`, the rest is unchanged; the
   * JavaScript decoder tells what is wrong); or undefined, having done nothing, when the frame
   * and its blocks need more than {@link SIMD_MEMORY_LIMIT}.
   */
  bloscDecodeBlocks(
    frame: Uint8Array,
    blocks: ArrayLike<number>,
    dst?: Uint8Array,
  ): Uint8Array | number | undefined;
}

/** Wraps an instance of the kernels' module. */
export function simdKernelsOf(instance: WasmInstance): SimdKernels {
  const k = instance.exports as unknown as KernelExports;
  const { memory } = k;
  const base = align(k.__heap_base.value);
  let heap = new Uint8Array(memory.buffer);

  /** The module's memory as bytes, with room for `bytes` from `base`; undefined past the limit. */
  function reserve(bytes: number): Uint8Array | undefined {
    if (bytes > SIMD_MEMORY_LIMIT) return undefined;
    const need = base + bytes;
    if (need > memory.buffer.byteLength) {
      memory.grow(Math.ceil((need - memory.buffer.byteLength) / PAGE));
    }
    if (heap.buffer !== memory.buffer) heap = new Uint8Array(memory.buffer);
    return heap;
  }

  const byteKernel =
    (run: (typesize: number, blocksize: number, src: number, dst: number) => void): BlockKernel =>
    (typesize, blocksize, src, srcOff, dst, dstOff) => {
      const size = align(blocksize);
      const mem = reserve(2 * size);
      if (!mem) return false;
      const dstPtr = base + size;
      mem.set(src.subarray(srcOff, srcOff + blocksize), base);
      run(typesize, blocksize, base, dstPtr);
      dst.set(mem.subarray(dstPtr, dstPtr + blocksize), dstOff);
      return true;
    };

  const bitKernel =
    (
      run: (typesize: number, blocksize: number, src: number, dst: number, scratch: number) => void,
    ): BlockKernel =>
    (typesize, blocksize, src, srcOff, dst, dstOff) => {
      const size = align(blocksize);
      const mem = reserve(3 * size);
      if (!mem) return false;
      const dstPtr = base + size;
      mem.set(src.subarray(srcOff, srcOff + blocksize), base);
      run(typesize, blocksize, base, dstPtr, dstPtr + size);
      dst.set(mem.subarray(dstPtr, dstPtr + blocksize), dstOff);
      return true;
    };

  return {
    shuffleBlock: byteKernel(k.shuffle),
    unshuffleBlock: byteKernel(k.unshuffle),
    bitshuffleBlock: bitKernel(k.bitshuffle),
    bitunshuffleBlock: bitKernel(k.bitunshuffle),
    lz4DecodeBlock(src, dst, start) {
      // Only the window matches can reach is copied in, so the module sees the output from
      // `start - prefix`; offsets into it are unchanged.
      const prefix = Math.min(start, LZ4_WINDOW);
      const room = prefix + dst.length - start;
      const srcSize = align(src.length);
      const mem = reserve(srcSize + room);
      if (!mem) return undefined;
      const dstPtr = base + srcSize;
      mem.set(src, base);
      if (prefix > 0) mem.set(dst.subarray(start - prefix, start), dstPtr);
      const end = k.lz4_decode_block(base, src.length, dstPtr, room, prefix);
      if (end < 0) return end;
      dst.set(mem.subarray(dstPtr + prefix, dstPtr + end), start);
      return start - prefix + end;
    },
    bloscDecodeBlocks(frame, blocks, dst) {
      if (frame.length < BLOSC_HEADER) return NOT_A_FRAME;
      const nbytes = int32(frame, 4);
      const blocksize = int32(frame, 8);
      if (blocksize <= 0 || blocksize > nbytes || (dst !== undefined && dst.length !== nbytes)) {
        return NOT_A_FRAME;
      }
      const count = blocks.length;
      // Blocks are decoded a batch at a time into an output area that stays in the cache and
      // copied out while they are there.
      const perBatch = Math.max(1, Math.floor(BATCH_BYTES / blocksize));
      const room = Math.min(count, perBatch) * blocksize;
      const frameSize = align(frame.length);
      const listSize = align(4 * count);
      const scratchSize = 2 * align(blocksize);
      const mem = reserve(frameSize + listSize + align(room) + scratchSize);
      if (!mem) return undefined;
      const listPtr = base + frameSize;
      const outPtr = listPtr + listSize;
      const scratchPtr = outPtr + align(room);
      mem.set(frame, base);
      new Uint32Array(mem.buffer, listPtr, count).set(blocks);
      const out = dst ?? new Uint8Array(nbytes);
      for (let first = 0; first < count; first += perBatch) {
        const n = Math.min(perBatch, count - first);
        const code = k.blosc_decode_blocks(
          base,
          frame.length,
          listPtr + 4 * first,
          n,
          outPtr,
          n * blocksize,
          scratchPtr,
          scratchSize,
        );
        if (code < 0) return code;
        // Runs of consecutive blocks are consecutive in the output area too: one copy each.
        for (let k0 = first; k0 < first + n; ) {
          let k1 = k0 + 1;
          while (k1 < first + n && blocks[k1] === blocks[k1 - 1] + 1) k1++;
          const from = blocks[k0] * blocksize;
          const to = Math.min(nbytes, blocks[k1 - 1] * blocksize + blocksize);
          const at = outPtr + (k0 - first) * blocksize;
          out.set(mem.subarray(at, at + to - from), from);
          k0 = k1;
        }
      }
      return out;
    },
  };
}

/** The size of a Blosc1 header. */
const BLOSC_HEADER = 16;
/** The most decoded bytes one call of the Blosc block decoder writes before they are copied out. */
const BATCH_BYTES = 1 << 20;
/** What {@link SimdKernels.bloscDecodeBlocks} returns for what is not a frame it decodes. */
const NOT_A_FRAME = -1;

/** A little-endian signed 32-bit integer. */
function int32(bytes: Uint8Array, at: number): number {
  return bytes[at] | (bytes[at + 1] << 8) | (bytes[at + 2] << 16) | (bytes[at + 3] << 24);
}

function align(n: number): number {
  return (n + 15) & ~15;
}
