/**
 * zstd (RFC 8878): native libzstd in Node 22.15 and later (unless `useCompressionPaths` rules
 * the native path out), libzstd compiled to WebAssembly elsewhere (loaded on first use), and a
 * reader of the frame layout that checks data before any decoder sees it.
 * @packageDocumentation
 */

export { zstdCompressWasm } from "./wasm.js";
export { zstdCompress } from "./zstd/compress.js";
export { type ZstdDecompressOptions, zstdDecompress } from "./zstd/decompress.js";
export { withContentSize, type ZstdFrame, type ZstdLayout, zstdLayout } from "./zstd/frame.js";
export { zstdIsNative } from "./zstd/native.js";
