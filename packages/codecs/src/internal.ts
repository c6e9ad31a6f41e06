/**
 * Internals of `@z/codecs` shared with the other `@z` packages: the shard index, the default
 * decode pool, the byte shuffles and numcodecs filter helpers. Not part of the public API: names
 * here change without a major version. Applications import `@z/codecs`.
 * @packageDocumentation
 */
export { subchunkOffset, writableChunk } from "./chunk-copy.js";
export { parseCastValueOptions } from "./extensions/cast-value-options.js";
export { quantizeBits } from "./filters/quantize-bits.js";
export { shuffleBytes, unshuffleBytes } from "./filters/shuffle-bytes.js";
export { DEFAULT_INDEX_CODECS, parseShardingConfiguration } from "./sharding/config.js";
export { defaultDecodePool, isMissingRegistration } from "./workers/decode-pool-default.js";
export {
  implicitDecodePool,
  isSharedDecodePool,
  retireSharedDecodePool,
} from "./workers/implicit-pool.js";
export { decodeInPool, PoolDecoder, poolDecoderOf } from "./workers/pool-decoder.js";
