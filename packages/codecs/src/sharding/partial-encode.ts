import type { PartialIoOptions, SubchunkWrite } from "../partial.js";
import { encodeInPool } from "../workers/pool-encoder.js";
import type { ShardingCodec } from "./codec.js";

/**
 * The new bytes of a shard after `writes` to some of its sub-chunks: each inner chunk they touch
 * goes through the inner codecs' partial encode (a nested shard rewrites only its touched inner
 * chunks; other inner codecs decode, change and encode the inner chunk, or skip the decode when
 * the write covers it), the others keep their stored bytes. Undefined when no inner chunk is
 * left (every one equal to the fill value).
 * @throws DecodeError, ChecksumError for a corrupt stored shard
 */
export async function encodeShardPartially(
  codec: ShardingCodec,
  current: Uint8Array | undefined,
  writes: readonly SubchunkWrite[],
  options: PartialIoOptions,
): Promise<Uint8Array | undefined> {
  const chunks = current
    ? await codec.storedInnerChunks(current)
    : new Array<Uint8Array | undefined>(codec.innerCount).fill(undefined);
  const groups = codec.subchunkGrid.group(writes.map((w) => w.coords));
  // Inner chunks encode through the inner codecs, in the pool the write names if any.
  const innerOptions: PartialIoOptions = {
    ...options,
    encodeChunk: (chunk, rebuild) => encodeInPool(codec.inner, chunk, rebuild, options),
  };
  await Promise.all(
    groups.map(async ({ inner, positions, within }) => {
      const innerWrites = positions.map((position, k): SubchunkWrite => {
        const write = writes[position];
        return { coords: within[k], covers: write.covers, write: (chunk) => write.write(chunk) };
      });
      try {
        chunks[inner] = await codec.inner.partialEncode(chunks[inner], innerWrites, innerOptions);
      } catch (error) {
        throw codec.nameInner(error, inner);
      }
    }),
  );
  return codec.assemble(chunks);
}
