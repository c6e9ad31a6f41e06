/**
 * Synchronous deflate on pako (a faithful port of zlib): the bytes CPython's zlib and gzip
 * modules write, zlib's `compress2`, and a bounded inflate into a given buffer (node:zlib's in
 * Node).
 * @packageDocumentation
 */
export { gzipCompressPython, gzipExtraFlags, gzipHeaderLength } from "./deflate/gzip-format.js";
export { type DeflateLevel, type PythonCalls, pythonDeflate } from "./deflate/python-deflate.js";
export { zlibCompressSync, zlibDecompressInto } from "./deflate/zlib-into.js";
