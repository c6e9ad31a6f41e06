// The blosc symbols the package exports (the stream codecs and helpers stay internal).
export {
  BloscCodec,
  type BloscSettings,
  type BloscShuffleCode,
  type BloscShuffleName,
} from "./codec.js";
export type { BloscCompressOptions } from "./compress.js";
export { BLOSC_CNAMES, type BloscCname, type BloscHeader, readBloscHeader } from "./header.js";
export { bloscCompress, bloscDecompress } from "./lazy-functions.js";
