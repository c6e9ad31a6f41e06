import { nativeCodecs } from "#native";
import { lazily } from "../lazy.js";
import type { DeflateLevel } from "./python-deflate.js";

/** The browser encoders (pako, driven as CPython drives zlib), loaded on the first write. */
const gzipEncoder = lazily(() => import("./gzip-format.js"));
const zlibEncoder = lazily(() => import("./python-deflate.js"));

/**
 * Compresses `data` into one gzip member at zlib `level` (-1 to 9). In Node it runs node:zlib on
 * libuv's thread pool (valid gzip, not the bytes Python writes: Node's zlib is a fork); in
 * browsers it writes what Python's gzip module writes byte for byte, with mtime 0 (see
 * {@link gzipCompressPython}).
 */
export function gzipCompress(data: Uint8Array, level: number): Uint8Array | Promise<Uint8Array> {
  if (nativeCodecs) return nativeCodecs.gzip(data, level);
  return gzipEncoder((m) => m.gzipCompressPython(data, level));
}

/**
 * Compresses `data` into one zlib stream (RFC 1950) at `level` (-1 to 9): node:zlib in Node, on
 * libuv's thread pool; in browsers pako driven as Python's `zlib.compress` drives zlib, so the
 * bytes equal Python's.
 */
export function zlibCompress(data: Uint8Array, level: number): Uint8Array | Promise<Uint8Array> {
  if (nativeCodecs) return nativeCodecs.deflate(data, level);
  return zlibEncoder((m) => m.pythonDeflate(data, level as DeflateLevel, false, "compress"));
}
