/**
 * Deflate in its zlib (RFC 1950) and gzip (RFC 1952) wrappings: node:zlib in Node; in browsers
 * fflate and pako, loaded on first use. The synchronous JavaScript parts are in
 * `@z/compression/deflate-sync`.
 * @packageDocumentation
 */
export { gzipCompress, zlibCompress } from "./deflate/compress.js";
export { gzipDecompress, type InflateOptions, zlibDecompress } from "./deflate/decompress.js";
