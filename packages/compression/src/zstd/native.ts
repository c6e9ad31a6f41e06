import { type NativeZstd, nativeCodecs } from "#native";
import { compressionPathAllowed } from "../paths.js";

/**
 * node:zlib's libzstd when this Node has it (22.15 and later) and this thread allows the native
 * path, else undefined (the WebAssembly build runs instead).
 */
export function nativeZstd(): NativeZstd | undefined {
  return compressionPathAllowed("native") ? nativeCodecs?.zstd : undefined;
}

/**
 * Whether zstd compression and decoding run natively in this thread now: node:zlib's libzstd,
 * where Node has it and the native path is allowed (see `useCompressionPaths`).
 */
export function zstdIsNative(): boolean {
  return nativeZstd() !== undefined;
}
