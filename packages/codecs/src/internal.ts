/**
 * Internals of `@z/codecs` shared with the other `@z` packages: the shard index, the default
 * decode pool, the byte shuffles and numcodecs filter helpers. Not part of the public API: names
 * here change without a major version. Applications import `@z/codecs`.
 * @packageDocumentation
 */
// The compression paths, for the process-wide configuration of @z/array.
export { type CompressionPath, compressionPathAllowed, useCompressionPaths } from "@z/compression";
export * from "./chunk-copy.js";
export * from "./extensions/cast-value-options.js";
export * from "./filters/quantize-bits.js";
export * from "./filters/shuffle-bytes.js";
export * from "./sharding/config.js";
export * from "./workers/decode-pool-default.js";
export * from "./workers/implicit-pool.js";
export * from "./workers/pool-decoder.js";
export * from "./workers/pool-encoder.js";
export * from "./workers/pool-placement.js";
