// Lazy loaders for numcodecs.js' WebAssembly codecs: the modules (and their ~1 MB of inlined
// WASM) load on first use only, so arrays that never use zstd or lz4 never pay for them.

/** The part of a numcodecs.js codec used here. */
export interface WasmCodec {
  encode(data: Uint8Array): Promise<Uint8Array> | Uint8Array;
  decode(data: Uint8Array): Promise<Uint8Array> | Uint8Array;
}

type WasmCodecClass = new (setting?: number) => WasmCodec;

let zstd: Promise<WasmCodecClass> | undefined;
let zstdDecoder: Promise<ZstdFrameDecoder> | undefined;
let lz4: Promise<WasmCodecClass> | undefined;

/** numcodecs.js' Zstd class (libzstd compiled to WASM). */
export function loadZstd(): Promise<WasmCodecClass> {
  zstd ??= import("numcodecs/zstd").then((m) => m.default as unknown as WasmCodecClass);
  return zstd;
}

/** numcodecs.js' LZ4 class (liblz4 compiled to WASM, numcodecs' framing). */
export function loadLz4(): Promise<WasmCodecClass> {
  lz4 ??= import("numcodecs/lz4").then((m) => m.default as unknown as WasmCodecClass);
  return lz4;
}

/**
 * Decodes one zstd frame into at most `capacity` bytes; the result is shorter than the content
 * when libzstd rejected the frame (see {@link loadZstdDecoder}).
 */
export type ZstdFrameDecoder = (frame: Uint8Array, capacity: number) => Uint8Array;

/**
 * zstddec's decoder: libzstd's decompressor compiled to WASM, which reports a corrupt frame as a
 * return code and frees its buffers on every call. numcodecs.js's decoder throws through
 * emscripten instead and leaks WASM stack on every frame it rejects, until (after ~1,900
 * rejected frames) every zstd call in the process fails; it is kept for encoding only.
 */
export function loadZstdDecoder(): Promise<ZstdFrameDecoder> {
  zstdDecoder ??= import("zstddec").then(async ({ ZSTDDecoder }) => {
    const decoder = new ZSTDDecoder();
    await decoder.init();
    return (frame, capacity) => decoder.decode(frame, capacity);
  });
  return zstdDecoder;
}
