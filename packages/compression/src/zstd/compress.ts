import { xxhash64 } from "../checksums/xxhash64.js";
import { zstdCompressWasm } from "../wasm.js";
import { nativeZstd } from "./native.js";

/** libzstd's default level, which it also uses when asked for level 0. */
const DEFAULT_LEVEL = 3;
/** libzstd's level range (ZSTD_minCLevel() and ZSTD_maxCLevel()); levels beyond it are clamped. */
const MIN_LEVEL = -131072;
const MAX_LEVEL = 22;

/**
 * Compresses `data` into one zstd frame that states its content size: with node:zlib's native
 * libzstd on libuv's thread pool where Node has it (22.15 and later) and the native path is
 * allowed (see `useCompressionPaths`), else with libzstd compiled to WebAssembly
 * (numcodecs.js, loaded on first use). Level 0 means libzstd's default (3);
 * levels are clamped to libzstd's range. The WebAssembly build cannot reach negative levels and
 * uses 1 for them. With `checksum`, the frame ends with its XXH64 content checksum (added here
 * for the WebAssembly build, which has no such option, exactly where libzstd puts it).
 */
export async function zstdCompress(
  data: Uint8Array,
  level = 0,
  checksum = false,
): Promise<Uint8Array> {
  const native = nativeZstd();
  if (native) {
    const clamped = level === 0 ? DEFAULT_LEVEL : Math.max(MIN_LEVEL, Math.min(MAX_LEVEL, level));
    return native.compress(data, clamped, checksum);
  }
  const frame = await zstdCompressWasm(data, level === 0 ? DEFAULT_LEVEL : level);
  return checksum ? withContentChecksum(frame, data) : frame;
}

/** Sets the Content_Checksum flag of a single-frame encoding and appends XXH64's low 32 bits. */
function withContentChecksum(frame: Uint8Array, content: Uint8Array): Uint8Array {
  const out = new Uint8Array(frame.length + 4);
  out.set(frame);
  out[4] |= 0x04;
  new DataView(out.buffer).setUint32(frame.length, xxhash64(content)[1], true);
  return out;
}
