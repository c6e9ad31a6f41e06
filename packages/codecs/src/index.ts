/**
 * Zarr codecs: the codec interfaces, the registry, the v3 pipeline, and every built-in codec
 * (bytes, transpose, crc32c, gzip, zlib, zstd, blosc, lz4 and the numcodecs filters).
 * Importing the package registers them all.
 * @packageDocumentation
 */
import "./builtins.js";

export * from "./core/bytes.js";
export * from "./core/crc32c-codec.js";
export * from "./core/transpose.js";
export * from "./crc32c.js";
export * from "./errors.js";
export * from "./pipeline.js";
export * from "./registry.js";
export * from "./types.js";
