// libzstd's decompressor compiled to WebAssembly with dictionary support (see
// wasm/build-zstd.sh): instantiated once per thread, on the first decode with a dictionary, so
// the module stays out of the first load of every app that never meets one. Its memory grows to
// the largest frame it has seen and is reused for every later call.
import { DecompressionError } from "../errors.js";
import { lazyWasmModule } from "../lazy-wasm.js";
import type { ZstdFrameDecoder } from "../wasm.js";

/** The module's exports (see wasm/zstd-glue.c). */
interface ZstdExports {
  readonly memory: { readonly buffer: ArrayBuffer };
  zd_malloc(size: number): number;
  zd_free(pointer: number): void;
  zd_set_dictionary(pointer: number, size: number): number;
  zd_decompress(dst: number, capacity: number, src: number, size: number): number;
}

/** libzstd's error codes (zstd_errors.h) that data can cause, worded for users. */
const ERRORS: Record<number, string> = {
  10: "it is not a zstd frame",
  12: "its frame format version is not supported",
  14: "a frame parameter is not supported",
  16: "its window is larger than libzstd decodes",
  20: "a block is corrupt",
  22: "its content checksum is wrong",
  24: "a literals header is wrong",
  30: "the dictionary is corrupt",
  32: "it was compressed with another dictionary",
  64: "the decoder ran out of memory",
  70: "it decodes to more bytes than its frame declares",
  72: "its frames end early or have trailing bytes",
};

const loadModule = lazyWasmModule<ZstdExports>(
  "zstd with a dictionary",
  async () => (await import("./zstd-wasm.js")).ZSTD_WASM,
);

/** The dictionary the module holds prepared, so a run of frames with one dictionary parses it once. */
let prepared: Uint8Array | undefined;

/**
 * A decoder of single frames with `dictionary` (zstd's dictionary format, or raw content): it
 * returns the decoded bytes, at most `capacity` of them, and throws a DecompressionError for a
 * frame libzstd rejects. The decoder is valid until the next call of this function.
 * @throws DecompressionError when libzstd does not accept the dictionary
 */
export async function loadZstdDictionaryDecoder(dictionary: Uint8Array): Promise<ZstdFrameDecoder> {
  const wasm = await loadModule();
  if (prepared !== dictionary) {
    prepared = undefined;
    const at = copyIn(wasm, dictionary);
    const ok = wasm.zd_set_dictionary(at, dictionary.length);
    wasm.zd_free(at);
    if (!ok)
      throw new DecompressionError("zstd", `the ${dictionary.length}-byte dictionary is corrupt`);
    prepared = dictionary;
  }
  return (frame, capacity) => decode(wasm, frame, capacity);
}

function decode(wasm: ZstdExports, frame: Uint8Array, capacity: number): Uint8Array {
  const src = copyIn(wasm, frame);
  const dst = wasm.zd_malloc(Math.max(capacity, 1));
  try {
    if (dst === 0) throw outOfMemory(capacity);
    const result = wasm.zd_decompress(dst, capacity, src, frame.length);
    if (result < 0) {
      const problem = ERRORS[-result] ?? `libzstd rejected it (error ${-result})`;
      throw new DecompressionError("zstd", problem);
    }
    return new Uint8Array(wasm.memory.buffer, dst, result).slice();
  } finally {
    wasm.zd_free(src);
    wasm.zd_free(dst);
  }
}

/** Copies bytes into the module's memory (the caller frees them). */
function copyIn(wasm: ZstdExports, bytes: Uint8Array): number {
  const at = wasm.zd_malloc(Math.max(bytes.length, 1));
  if (at === 0) throw outOfMemory(bytes.length);
  new Uint8Array(wasm.memory.buffer, at, bytes.length).set(bytes);
  return at;
}

function outOfMemory(size: number): DecompressionError {
  return new DecompressionError("zstd", `the decoder could not allocate ${size} bytes`);
}
