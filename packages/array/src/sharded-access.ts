import type { ShardIndex } from "@z/codecs";
import { DecodeError, ShardingCodec } from "@z/codecs";
import type { ChunkPart, WriteSource } from "@z/indexing";
import type { Chunk, ChunkAxis } from "@z/metadata";
import { CoalescingStore, type Readable, type Writable } from "@z/store-core";
import type { AccessOptions, ChunkAccess } from "./chunk-access.js";
import { type ChunkIo, locate, writableChunk } from "./chunk-io.js";
import { DEFAULT_CONCURRENCY, forEachConcurrent } from "./concurrency.js";
import { writeEpoch } from "./key-lock.js";
import { LruCache } from "./lru.js";
import { PoolDecoder } from "./pool-decode.js";
import { replaceKey, updateKey } from "./read-modify-write.js";

/** Options of sharded reads. */
export interface ShardedAccessOptions {
  /** Bytes of shard indexes kept in memory, most recently used first (default 16 MiB). */
  indexCacheBytes?: number;
  /** Inner chunks closer than this many bytes in a shard are fetched with one request (default 64 KiB). */
  coalesceGap?: number;
}

/** A byte span of a shard. */
type Span = { offset: number; length: number };

interface ShardGroup {
  coords: number[];
  /** The sharding codec of this shard (configured with its shape). */
  codec: ShardingCodec;
  items: { part: ChunkPart; inner: number }[];
}

/**
 * Reads and writes a sharded array inner chunk by inner chunk. Selections are projected onto
 * the inner chunks; a read fetches each touched shard's index with one ranged request (cached
 * in a bounded LRU), then only the inner chunks it needs, with near ones merged into one
 * request. A write touches only the shards in the region, re-encodes only the inner chunks it
 * changes (the others are copied as stored), leaves out inner chunks equal to the fill value,
 * and deletes a shard left with none.
 */
export class ShardedAccess implements ChunkAccess {
  readonly chunkShape: readonly number[];
  /**
   * Shard indexes (null: no shard) with the write epoch of their key when they were fetched:
   * a write of the shard through any array object of the same store makes them stale.
   */
  private readonly indexes: LruCache<string, { index: ShardIndex | null; epoch: number }>;
  /** Reads inner chunks, merging near ranges of a shard into one request. */
  private readonly ranged: CoalescingStore;
  /** Decodes inner chunks in a worker pool when a read asks for one. */
  private readonly poolDecoder: PoolDecoder;

  constructor(
    private readonly io: ChunkIo,
    private readonly codec: ShardingCodec,
    options: ShardedAccessOptions = {},
  ) {
    this.chunkShape = codec.configuration.chunkShape;
    this.poolDecoder = new PoolDecoder(codec.inner.toJson(), codec.innerSpec, 3);
    this.indexes = new LruCache(options.indexCacheBytes ?? 16 << 20);
    this.ranged = new CoalescingStore(io.store, {
      gap: options.coalesceGap ?? 64 << 10,
      batchGets: false,
    });
  }

  private get store(): Readable {
    return this.io.store;
  }

  /** The shard grid's axes: shards may differ in shape (a `rectilinear` grid). */
  private get shardAxes(): readonly ChunkAxis[] {
    return this.io.metadata.chunkGrid.axes;
  }

  /** The sharding codec of the shard at `coords`: the same for every shard of a regular grid. */
  private codecOf(coords: readonly number[]): ShardingCodec {
    if (this.io.metadata.chunkGrid.chunkShape) return this.codec;
    const codec = this.io.pipelineFor(coords).arrayToBytes.codec;
    return codec instanceof ShardingCodec ? codec : this.codec;
  }

  /** The first inner chunk index of shard `shard` along `axis`. */
  private firstInner(shard: number, axis: number): number {
    return this.shardAxes[axis].start(shard) / this.chunkShape[axis];
  }

  private group(parts: Iterable<ChunkPart>): ShardGroup[] {
    const axes = this.shardAxes;
    const groups = new Map<string, ShardGroup>();
    for (const part of parts) {
      const coords = part.coords.map((c, axis) => axes[axis].chunkOf(c * this.chunkShape[axis]));
      const key = coords.join(",");
      let group = groups.get(key);
      if (!group) groups.set(key, (group = { coords, codec: this.codecOf(coords), items: [] }));
      group.items.push({
        part,
        inner: group.codec.innerIndex(
          part.coords.map((c, axis) => c - this.firstInner(coords[axis], axis)),
        ),
      });
    }
    return [...groups.values()];
  }

  /** The index of a shard (cached), or undefined when the shard does not exist. */
  async shardIndex(
    coords: readonly number[],
    options: AccessOptions = {},
  ): Promise<ShardIndex | undefined> {
    const key = this.io.chunkKey(coords);
    const codec = this.codecOf(coords);
    const epoch = writeEpoch(this.store, key);
    const cached = this.indexes.get(key);
    if (cached !== undefined && cached.epoch === epoch) return cached.index ?? undefined;
    const bytes = await this.store.get(key, {
      range: codec.indexRange(),
      signal: options.signal,
    });
    if (bytes === undefined) {
      this.indexes.set(key, { index: null, epoch }, 64);
      return undefined;
    }
    let index: ShardIndex;
    try {
      index = await codec.decodeIndex(bytes);
    } catch (error) {
      throw locate(error, `shard /${key}`, key);
    }
    this.indexes.set(key, { index, epoch }, index.entries.byteLength + 64);
    return index;
  }

  /** Fetches byte spans of one shard, merging near ones into one request. */
  private async fetchSpans(
    key: string,
    spans: Span[],
    options: AccessOptions,
  ): Promise<Uint8Array[]> {
    const fetched = await this.ranged.getRanges(key, spans, { signal: options.signal });
    if (!fetched) {
      throw new DecodeError(`shard /${key} disappeared while it was being read`, { key });
    }
    return fetched;
  }

  async readParts(
    parts: Iterable<ChunkPart>,
    visit: (part: ChunkPart, chunk: Chunk | undefined) => void,
    options: AccessOptions,
  ): Promise<void> {
    await forEachConcurrent(
      this.group(parts),
      options.concurrency ?? DEFAULT_CONCURRENCY,
      async (group) => {
        const key = this.io.chunkKey(group.coords);
        const index = await this.shardIndex(group.coords, options);
        const present: { part: ChunkPart; inner: number; span: Span }[] = [];
        for (const item of group.items) {
          let entry: ReturnType<ShardIndex["entry"]>;
          try {
            entry = index?.entry(item.inner);
          } catch (error) {
            throw locate(error, `shard /${key}`, key);
          }
          if (entry)
            present.push({ ...item, span: { offset: entry.offset, length: entry.nbytes } });
          else visit(item.part, undefined);
        }
        if (present.length === 0) return;
        // The spans may lie in any order in the shard (zarr-python writes inner chunks in
        // Morton order), with gaps; each is fetched by its own offset.
        const bytes = await this.fetchSpans(
          key,
          present.map((p) => p.span),
          options,
        );
        await Promise.all(
          present.map(async ({ part, inner, span }, i) => {
            if (bytes[i].length !== span.length) {
              throw new DecodeError(
                `shard /${key}: inner chunk [${group.codec.innerCoords(inner)}] is indexed at bytes ${span.offset}..${span.offset + span.length}, past the end of the shard`,
                { key },
              );
            }
            const chunk = await this.decodeInner(group.codec, bytes[i], inner, options).catch(
              (e) => {
                throw locate(e, `shard /${key}`, key);
              },
            );
            visit(part, chunk);
          }),
        );
      },
      options.signal,
    );
  }

  /** Decodes an inner chunk, in the worker pool the read names (or the default one), if any. */
  private decodeInner(
    codec: ShardingCodec,
    bytes: Uint8Array,
    inner: number,
    options: AccessOptions,
  ): Promise<Chunk> {
    const pool = this.poolDecoder.poolFor(options);
    if (!pool) return codec.decodeInner(bytes, inner);
    const decode = (b: Uint8Array) => codec.decodeInner(b, inner);
    return this.poolDecoder.decode(pool, bytes, { signal: options.signal }, decode).catch((e) => {
      if (e instanceof Error && !e.message.startsWith("inner chunk"))
        e.message = `inner chunk [${codec.innerCoords(inner)}]: ${e.message}`;
      throw e;
    });
  }

  /** Whether the parts of a shard cover every inner chunk of it that lies inside the array. */
  private coversShard(group: ShardGroup): boolean {
    const shape = this.io.metadata.shape;
    const covered = new Set(
      group.items.filter((i) => i.part.covers(this.chunkShape, shape)).map((i) => i.inner),
    );
    const first = group.coords.map((shard, axis) => this.firstInner(shard, axis));
    for (let inner = 0; inner < group.codec.innerCount; inner++) {
      const coords = group.codec.innerCoords(inner);
      const inside = coords.every(
        (c, axis) => (first[axis] + c) * this.chunkShape[axis] < shape[axis],
      );
      if (inside && !covered.has(inner)) return false;
    }
    return true;
  }

  /**
   * The encoded inner chunks of a stored shard (undefined for empty ones, and all of them when
   * the shard does not exist).
   */
  private async storedChunks(
    key: string,
    shard: Uint8Array | undefined,
    codec: ShardingCodec,
  ): Promise<(Uint8Array | undefined)[]> {
    const chunks = new Array<Uint8Array | undefined>(codec.innerCount).fill(undefined);
    if (!shard) return chunks;
    const at = codec.indexLocation === "start" ? 0 : shard.length - codec.indexSize;
    try {
      const index = await codec.decodeIndex(
        shard.subarray(Math.max(0, at), Math.max(0, at) + codec.indexSize),
      );
      for (let i = 0; i < codec.innerCount; i++) {
        const entry = index.entry(i, shard.length);
        if (entry) chunks[i] = shard.subarray(entry.offset, entry.offset + entry.nbytes);
      }
    } catch (error) {
      throw locate(error, `shard /${key}`);
    }
    return chunks;
  }

  /**
   * The new bytes of a shard after writing `group`'s parts into it (undefined when no inner
   * chunk is left): inner chunks the parts cover are encoded afresh, the ones they touch are
   * decoded from `shard`, changed and encoded, the others are copied as stored.
   */
  private async rewriteShard(
    key: string,
    shard: Uint8Array | undefined,
    group: ShardGroup,
    source: WriteSource,
  ): Promise<Uint8Array | undefined> {
    const { dataType, fillValue, shape } = this.io.metadata;
    const codec = group.codec;
    const chunks = await this.storedChunks(key, shard, codec);
    for (const { part, inner } of group.items) {
      const stored = chunks[inner];
      const keep = stored && !part.covers(this.chunkShape, shape);
      const chunk = writableChunk(
        codec.innerSpec,
        this.chunkShape,
        keep ? await codec.decodeInner(stored, inner) : undefined,
      );
      part.write(chunk, source, dataType);
      chunks[inner] = dataType.isAllFill(chunk.data, fillValue)
        ? undefined
        : await codec.inner.encode(chunk);
    }
    return codec.assemble(chunks);
  }

  async writeParts(
    parts: Iterable<ChunkPart>,
    source: WriteSource,
    options: AccessOptions,
    done: () => void,
  ): Promise<void> {
    const store = this.store as Readable & Writable;
    await forEachConcurrent(
      this.group(parts),
      options.concurrency ?? DEFAULT_CONCURRENCY,
      async (group) => {
        const key = this.io.chunkKey(group.coords);
        const signal = options.signal;
        // A write that covers the whole shard needs nothing of what is stored; any other is a
        // read-modify-write of the shard, serialised with other writers of it (updateKey).
        if (this.coversShard(group)) {
          const shard = await this.rewriteShard(key, undefined, group, source);
          await replaceKey(store, key, shard, { signal });
        } else {
          await updateKey(store, key, (shard) => this.rewriteShard(key, shard, group, source), {
            signal,
          });
        }
        this.indexes.delete(key);
        for (let i = 0; i < group.items.length; i++) done();
      },
      options.signal,
    );
  }
}
