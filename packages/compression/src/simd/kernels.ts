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
  };
}

function align(n: number): number {
  return (n + 15) & ~15;
}
