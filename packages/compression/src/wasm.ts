// The WebAssembly builds of liblz4 and libzstd: numcodecs.js (its LZ4 and Zstd classes, ~1 MB
// of inlined WASM) and zstddec load on first use only, so code that never needs them never
// pays for them.

/** The part of a numcodecs.js codec used here. */
interface WasmCodec {
  encode(data: Uint8Array): Promise<Uint8Array> | Uint8Array;
}

type WasmCodecClass = new (setting?: number) => WasmCodec;

let zstd: Promise<WasmCodecClass> | undefined;
let lz4: Promise<WasmCodecClass> | undefined;
let zstdDecoder: Promise<ZstdFrameDecoder> | undefined;
const zstdEncoders = new Map<number, WasmCodec>();
const lz4Encoders = new Map<number, WasmCodec>();

/** numcodecs.js' Zstd class (libzstd compiled to WASM). */
function loadZstd(): Promise<WasmCodecClass> {
  zstd ??= import("numcodecs/zstd").then((m) => m.default as unknown as WasmCodecClass);
  return zstd;
}

/** numcodecs.js' LZ4 class (liblz4 compiled to WASM, numcodecs' framing). */
function loadLz4(): Promise<WasmCodecClass> {
  lz4 ??= import("numcodecs/lz4").then((m) => m.default as unknown as WasmCodecClass);
  return lz4;
}

/**
 * One zstd frame of `data` at `level` from libzstd compiled to WebAssembly (numcodecs.js, the
 * bytes numcodecs writes): the frame states its content size and has no checksum. Levels below
 * 1 act as 1 in this build.
 */
export async function zstdCompressWasm(data: Uint8Array, level: number): Promise<Uint8Array> {
  let encoder = zstdEncoders.get(level);
  if (!encoder) {
    encoder = new (await loadZstd())(level);
    zstdEncoders.set(level, encoder);
  }
  return encoder.encode(data);
}

/**
 * One raw LZ4 block of `data` from liblz4 compiled to WebAssembly (numcodecs.js), at
 * `acceleration` (values below 1 act as 1).
 */
export async function lz4CompressWasm(data: Uint8Array, acceleration: number): Promise<Uint8Array> {
  let encoder = lz4Encoders.get(acceleration);
  if (!encoder) {
    encoder = new (await loadLz4())(acceleration);
    lz4Encoders.set(acceleration, encoder);
  }
  // numcodecs' framing: a 4-byte decoded size, then the raw block.
  return (await encoder.encode(data)).subarray(4);
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
 * rejected frames) every zstd call in the process fails; it is used for encoding only.
 */
export function loadZstdDecoder(): Promise<ZstdFrameDecoder> {
  zstdDecoder ??= import("zstddec").then(async ({ ZSTDDecoder }) => {
    const decoder = new ZSTDDecoder();
    await decoder.init();
    return (frame, capacity) => decoder.decode(frame, capacity);
  });
  return zstdDecoder;
}
