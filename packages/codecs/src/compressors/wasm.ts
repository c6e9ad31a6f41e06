// Lazy loaders for numcodecs.js' WebAssembly codecs: the modules (and their ~1 MB of inlined
// WASM) load on first use only, so arrays that never use zstd or lz4 never pay for them.

/** The part of a numcodecs.js codec used here. */
export interface WasmCodec {
  encode(data: Uint8Array): Promise<Uint8Array> | Uint8Array;
  decode(data: Uint8Array): Promise<Uint8Array> | Uint8Array;
}

type WasmCodecClass = new (setting?: number) => WasmCodec;

let zstd: Promise<WasmCodecClass> | undefined;
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
