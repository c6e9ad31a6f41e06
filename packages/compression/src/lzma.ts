/**
 * LZMA in its `.xz`, `.lzma` and raw LZMA2 containers, on @napi-rs/lzma (native in Node; in
 * browsers through an import map, see docs/browsers.md), loaded on first use, with readers of
 * the containers' structure that bound the output before decoding.
 * @packageDocumentation
 */
export {
  aloneLayout,
  type LzmaDecompressOptions,
  type LzmaFormat,
  lzmaCompress,
  lzmaDecompress,
} from "./lzma/codec.js";
export { isXz, type LzmaLayout, lzma2Layout, xzLayout } from "./lzma/layout.js";
export { loadLzma, type NapiLzma } from "./lzma/library.js";
