/**
 * The codec contract test suite: `describeCodecContract` registers the vitest tests every codec
 * must pass (round trips, honest encoded sizes, a decoder bounded by the chunk spec, typed
 * errors for truncated, corrupted or arbitrary input). Needs `vitest` and `fast-check`
 * (optional peer dependencies, only for this entry point). The shard builder lays shards out by
 * hand, the way other writers do, for tests of sharded reads.
 * @packageDocumentation
 */
export { chunkOf, chunkValues, smallerSpec } from "./chunks.js";
export { type CodecContractOptions, type CodecSample, describeCodecContract } from "./contract.js";
export {
  buildShard,
  cIndex,
  cOrder,
  crc32cOf,
  encodeIndex,
  mortonOrder,
  permutation,
  type ShardLayout,
  seededRandom,
} from "./shard-builder.js";
