// Reads of sub-chunks through a pipeline's partial decoder (a sharded array): index caching and
// range coalescing. Loaded with the first read of an array whose pipeline reads sub-chunks, so
// that an app whose arrays are not sharded does not download it.
import type { ByteRangeSource, CodecPipeline, PartialDecoder, PartialIoOptions } from "@z/codecs";
import { locateError } from "@z/errors";
import type { Chunk, TypedArray } from "@z/ndarray";
import { ByteLruCache, CoalescingStore } from "@z/store-core";
import { settings } from "../config/settings.js";
import { writeEpoch } from "../write/key-lock.js";
import type { ChunkGroup } from "./chunk-groups.js";
import type { ChunkStore } from "./chunk-store.js";

/** Sub-chunks closer than this many bytes in a stored chunk are fetched with one request. */
const COALESCE_GAP = 64 << 10;

/**
 * Reads the sub-chunks of stored chunks through their pipeline's partial decoder, without
 * knowing how the codec lays a chunk out. A read makes one partial decoder per touched chunk
 * (it reads what every later read needs, a shard's index), kept in a bounded LRU until the key
 * is written, then asks it for the sub-chunks it needs, whose byte ranges it reads in one batch,
 * near ones merged into one request.
 */
export class PartialReads {
  /**
   * Partial decoders (null: no stored chunk) with the write epoch of their key when they were
   * made: a write of the key through any array object of the same store makes them stale.
   */
  private readonly decoders = new ByteLruCache<
    string,
    { decoder: PartialDecoder | null; epoch: number }
  >(settings.shardIndexCacheBytes, (entry) => (entry.decoder?.heldBytes ?? 0) + 64);
  /** Reads stored chunks by range, merging near ranges of one chunk into one request. */
  private readonly ranged: CoalescingStore;

  constructor(
    private readonly chunks: ChunkStore,
    private readonly pipelineFor: (coords: readonly number[]) => CodecPipeline,
  ) {
    this.ranged = new CoalescingStore(chunks.store, { gap: COALESCE_GAP });
  }

  /**
   * The stored chunk at `key` as a byte source. Its reads go through the coalescing store: the
   * ranges of one batch, and single ranged reads made in the same microtask (the indexes of the
   * inner shards of nested sharding), are merged when near each other.
   */
  private sourceOf(key: string): ByteRangeSource {
    return {
      get: (range, options) => this.ranged.get(key, { range, signal: options?.signal }),
      getRanges: (ranges, options) =>
        this.ranged.getRanges(key, ranges, { signal: options?.signal }),
    };
  }

  /** The partial decoder of a stored chunk (cached), or undefined when it does not exist. */
  private async decoderOf(
    coords: readonly number[],
    key: string,
    options: PartialIoOptions,
  ): Promise<PartialDecoder | undefined> {
    const epoch = writeEpoch(this.chunks.store, key);
    const cached = this.decoders.get(key);
    if (cached !== undefined && cached.epoch === epoch) return cached.decoder ?? undefined;
    const decoder = await this.pipelineFor(coords).partialDecoder(this.sourceOf(key), options);
    this.decoders.set(key, { decoder: decoder ?? null, epoch });
    return decoder;
  }

  /**
   * The decoded sub-chunks of a group, in the order of its items (undefined: never written;
   * null: a worker copied its part into `into`, a result in shared memory).
   * @throws DecodeError / ChecksumError naming the stored chunk's key
   */
  async read(
    group: ChunkGroup,
    options: PartialIoOptions,
    into?: { out: TypedArray; lanes: number },
  ): Promise<(Chunk | undefined | null)[]> {
    const key = this.chunks.key(group.coords);
    try {
      const decoder = await this.decoderOf(group.coords, key, options);
      if (!decoder) return [];
      // With a shared result, workers copy each sub-chunk's part into it (reported as null).
      const place = into && {
        ...into,
        regions: group.items.map(({ part }) => {
          const region = part.region?.();
          return region && [region];
        }),
      };
      return await decoder.decodeSubchunks(
        group.items.map((item) => item.sub),
        place ? { ...options, place } : options,
      );
    } catch (error) {
      throw locateError(error, `shard /${key}`, { key });
    }
  }
}
