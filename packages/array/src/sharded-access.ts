import type {
  ByteRangeSource,
  CodecPipeline,
  PartialDecoder,
  PartialIoOptions,
  SubchunkWrite,
  WholeChunkDecode,
} from "@z/codecs";
import type { ChunkPart, WriteSource } from "@z/indexing";
import type { ChunkAxis } from "@z/metadata";
import type { Chunk } from "@z/ndarray";
import { CoalescingStore, type Readable, type Writable } from "@z/store-core";
import type { AccessOptions, ChunkAccess } from "./chunk-access.js";
import { type ChunkIo, locate } from "./chunk-io.js";
import { DEFAULT_CONCURRENCY, forEachConcurrent } from "./concurrency.js";
import { writeEpoch } from "./key-lock.js";
import { LruCache } from "./lru.js";
import { PoolDecoder } from "./pool-decode.js";
import { replaceKey, updateKey } from "./read-modify-write.js";

/** Options of sharded reads. */
export interface ShardedAccessOptions {
  /** Bytes of partial decoders (shard indexes) kept in memory, most recently used first (default 16 MiB). */
  indexCacheBytes?: number;
  /** Sub-chunks closer than this many bytes in a stored chunk are fetched with one request (default 64 KiB). */
  coalesceGap?: number;
}

/** The sub-chunks of one stored chunk that a read or write touches. */
interface ChunkGroup {
  /** The stored chunk's grid coordinates. */
  coords: number[];
  /** Its store key. */
  key: string;
  /** Its codec pipeline (configured with its shape). */
  pipeline: CodecPipeline;
  /** The parts, each with its sub-chunk's coordinates inside the stored chunk. */
  items: { part: ChunkPart; sub: number[] }[];
}

/**
 * Reads and writes an array whose codec pipeline offers partial I/O (a sharded array) sub-chunk
 * by sub-chunk, through the pipeline's partial decoder and encoder, without knowing how the
 * codec lays a chunk out. Selections are projected onto the sub-chunks; a read makes one
 * partial decoder per touched chunk (it reads the shard's index; kept in a bounded LRU until a
 * write of the key), then asks it for the sub-chunks it needs, whose byte ranges it reads in
 * one batch, near ones merged into one request. A write touches only the chunks in the region
 * and has the pipeline re-encode only the sub-chunks it changes; a chunk left all fill value is
 * deleted.
 */
export class ShardedAccess implements ChunkAccess {
  /** The sub-chunk shape: selections are projected onto it. */
  readonly chunkShape: readonly number[];
  /**
   * Partial decoders (null: no stored chunk) with the write epoch of their key when they were
   * made: a write of the key through any array object of the same store makes them stale.
   */
  private readonly decoders: LruCache<string, { decoder: PartialDecoder | null; epoch: number }>;
  /** Reads stored chunks by range, merging near ranges of one chunk into one request. */
  private readonly ranged: CoalescingStore;
  /** Worker-pool decoding, one per pipeline of whole sub-chunks (the innermost codecs). */
  private readonly poolDecoders = new WeakMap<CodecPipeline, PoolDecoder>();

  constructor(
    private readonly io: ChunkIo,
    options: ShardedAccessOptions = {},
  ) {
    this.chunkShape = io.pipeline.subchunkShape;
    this.decoders = new LruCache(options.indexCacheBytes ?? 16 << 20);
    this.ranged = new CoalescingStore(io.store, {
      gap: options.coalesceGap ?? 64 << 10,
    });
  }

  private get store(): Readable {
    return this.io.store;
  }

  /** The chunk grid's axes: stored chunks may differ in shape (a `rectilinear` grid). */
  private get axes(): readonly ChunkAxis[] {
    return this.io.metadata.chunkGrid.axes;
  }

  /** The first sub-chunk index of stored chunk `chunk` along `axis`. */
  private firstSub(chunk: number, axis: number): number {
    return this.axes[axis].start(chunk) / this.chunkShape[axis];
  }

  private group(parts: Iterable<ChunkPart>): ChunkGroup[] {
    const axes = this.axes;
    const groups = new Map<string, ChunkGroup>();
    for (const part of parts) {
      const coords = part.coords.map((c, axis) => axes[axis].chunkOf(c * this.chunkShape[axis]));
      const id = coords.join(",");
      let group = groups.get(id);
      if (!group) {
        const key = this.io.chunkKey(coords);
        groups.set(id, (group = { coords, key, pipeline: this.io.pipelineFor(coords), items: [] }));
      }
      const sub = part.coords.map((c, axis) => c - this.firstSub(coords[axis], axis));
      group.items.push({ part, sub });
    }
    return [...groups.values()];
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
    group: ChunkGroup,
    options: PartialIoOptions,
  ): Promise<PartialDecoder | undefined> {
    const { key } = group;
    const epoch = writeEpoch(this.store, key);
    const cached = this.decoders.get(key);
    if (cached !== undefined && cached.epoch === epoch) return cached.decoder ?? undefined;
    const decoder = await group.pipeline.partialDecoder(this.sourceOf(key), options);
    this.decoders.set(key, { decoder: decoder ?? null, epoch }, (decoder?.heldBytes ?? 0) + 64);
    return decoder;
  }

  /** Decodes whole sub-chunks in the worker pool the read names (or the default one), if any. */
  private decodeHook(options: AccessOptions): WholeChunkDecode {
    const { signal } = options;
    return (bytes, pipeline) => {
      let poolDecoder = this.poolDecoders.get(pipeline);
      if (!poolDecoder) {
        poolDecoder = new PoolDecoder(pipeline.toJson(), pipeline.spec, pipeline.zarrFormat);
        this.poolDecoders.set(pipeline, poolDecoder);
      }
      const pool = poolDecoder.poolFor(options);
      if (!pool) return pipeline.decode(bytes);
      return poolDecoder.decode(pool, bytes, { signal }, (b) => pipeline.decode(b));
    };
  }

  async readParts(
    parts: Iterable<ChunkPart>,
    visit: (part: ChunkPart, chunk: Chunk | undefined) => void,
    options: AccessOptions,
  ): Promise<void> {
    const partialOptions: PartialIoOptions = {
      signal: options.signal,
      decode: this.decodeHook(options),
    };
    await forEachConcurrent(
      this.group(parts),
      options.concurrency ?? DEFAULT_CONCURRENCY,
      async (group) => {
        let chunks: (Chunk | undefined)[];
        try {
          const decoder = await this.decoderOf(group, partialOptions);
          chunks = decoder
            ? await decoder.decodeSubchunks(
                group.items.map((item) => item.sub),
                partialOptions,
              )
            : [];
        } catch (error) {
          throw locate(error, `shard /${group.key}`, group.key);
        }
        group.items.forEach(({ part }, k) => {
          visit(part, chunks[k]);
        });
      },
      options.signal,
    );
  }

  /** Whether the parts of a group cover every sub-chunk of its stored chunk that lies inside the array. */
  private coversChunk(group: ChunkGroup): boolean {
    const shape = this.io.metadata.shape;
    const covered = new Set(
      group.items.filter((i) => i.part.covers(this.chunkShape, shape)).map((i) => i.sub.join()),
    );
    const chunkShape = this.io.shapeOf(group.coords);
    const counts = chunkShape.map((n, axis) => n / this.chunkShape[axis]);
    const first = group.coords.map((c, axis) => this.firstSub(c, axis));
    // Walk the sub-chunk grid of the stored chunk, counting only sub-chunks inside the array.
    const sub = counts.map(() => 0);
    const total = counts.reduce((a, b) => a * b, 1);
    for (let n = 0; n < total; n++) {
      const inside = sub.every(
        (c, axis) => (first[axis] + c) * this.chunkShape[axis] < shape[axis],
      );
      if (inside && !covered.has(sub.join())) return false;
      for (let axis = sub.length - 1; axis >= 0; axis--) {
        if (++sub[axis] < counts[axis]) break;
        sub[axis] = 0;
      }
    }
    return true;
  }

  async writeParts(
    parts: Iterable<ChunkPart>,
    source: WriteSource,
    options: AccessOptions,
    done: () => void,
  ): Promise<void> {
    const store = this.store as Readable & Writable;
    const { dataType, shape } = this.io.metadata;
    await forEachConcurrent(
      this.group(parts),
      options.concurrency ?? DEFAULT_CONCURRENCY,
      async (group) => {
        const { key, pipeline } = group;
        const signal = options.signal;
        const writes = group.items.map(
          ({ part, sub }): SubchunkWrite => ({
            coords: sub,
            covers: part.covers(this.chunkShape, shape),
            write: (chunk) => part.write(chunk, source, dataType),
          }),
        );
        const encode = (current: Uint8Array | undefined) =>
          pipeline.partialEncode(current, writes, { signal }).catch((error: unknown) => {
            throw locate(error, `shard /${key}`);
          });
        // A write that covers the whole chunk needs nothing of what is stored; any other is a
        // read-modify-write of it, serialised with other writers of it (updateKey).
        if (this.coversChunk(group)) {
          await replaceKey(store, key, await encode(undefined), { signal });
        } else {
          await updateKey(store, key, encode, { signal });
        }
        this.decoders.delete(key);
        for (let i = 0; i < group.items.length; i++) done();
      },
      options.signal,
    );
  }
}
