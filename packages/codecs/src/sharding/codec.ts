import { locateError } from "@z/errors";
import {
  checkLimit,
  type JsonObject,
  type NamedConfig,
  namedConfigToJson,
  uint64,
} from "@z/metadata";
import { type Chunk, cOrderStrides, copyStrided, product } from "@z/ndarray";
import { type ByteRangeSource, memorySource } from "../byte-source.js";
import { subchunkOffset } from "../chunk-copy.js";
import { CodecConfigError, DecodeError } from "../errors.js";
import type {
  PartialArrayToBytes,
  PartialDecoder,
  PartialIoOptions,
  SubchunkWrite,
} from "../partial.js";
import { CodecPipeline } from "../pipeline.js";
import type { ArrayToBytesCodec, ChunkSpec, CodecContext } from "../types.js";
import type { PlaceTarget } from "../workers/decode-pool.js";
import { decodeInPool, placeableIn, poolDecoderOf } from "../workers/pool-decoder.js";
import { decodeIntoInPool } from "../workers/pool-placement.js";
import {
  type IndexLocation,
  parseShardingConfiguration,
  type ShardingConfiguration,
} from "./config.js";
import { ShardPartialDecoder } from "./partial-decoder.js";
import { encodeShardPartially } from "./partial-encode.js";
import { ShardIndex } from "./shard-index.js";
import { SubchunkGrid } from "./subchunk-grid.js";

/**
 * The `sharding_indexed` codec: a shard is many inner chunks, each encoded by the inner codecs,
 * stored one after another with an index of `(offset, nbytes)` pairs (uint64) at the start or
 * end. Inner chunks equal to the fill value are left out (marked empty in the index).
 *
 * `encode`/`decode` handle whole shards. The codec also offers partial I/O (`partial`): reads
 * of some sub-chunks that fetch only the index and the inner chunks they need, and writes that
 * re-encode only the inner chunks they change. Sub-chunks are the inner chunks, or with nested
 * sharding (inner codecs that offer partial I/O themselves) the innermost chunks.
 *
 * The codec is bound to the shard spec it was built with; `encode` and `decode` ignore the
 * spec they are passed.
 */
export class ShardingCodec implements ArrayToBytesCodec, PartialArrayToBytes {
  readonly kind = "array_to_bytes";
  readonly name = "sharding_indexed";
  /** Inner chunks per shard along each axis. */
  readonly chunksPerShard: number[];
  /** The number of inner chunks in a shard. */
  readonly innerCount: number;
  /** The spec of inner chunks. */
  readonly innerSpec: ChunkSpec;
  /** The codec pipeline of inner chunks. */
  readonly inner: CodecPipeline;
  /** The codec pipeline of the index. */
  readonly indexPipeline: CodecPipeline;
  /** The index's encoded size in bytes. */
  readonly indexSize: number;
  /** Whether the inner codecs read and write sub-chunks themselves (nested sharding). */
  readonly nested: boolean;
  /** The shape of the sub-chunks partial reads and writes work on. */
  readonly subchunkShape: readonly number[];
  /**
   * Where each sub-chunk lies among the inner chunks (for the partial decoder and encoder).
   * @internal
   */
  readonly subchunkGrid: SubchunkGrid;
  /** The partial I/O capability: the codec itself. */
  readonly partial: PartialArrayToBytes = this;

  constructor(
    readonly configuration: ShardingConfiguration,
    /** The spec of whole shards. */
    readonly shardSpec: ChunkSpec,
    zarrFormat: 2 | 3,
  ) {
    const { chunkShape } = configuration;
    this.chunksPerShard = shardSpec.shape.map((n, axis) => n / chunkShape[axis]);
    this.innerCount = product(this.chunksPerShard);
    // The index holds 16 bytes per inner chunk and is read whole: bound it like a chunk, before
    // anything of that size is allocated.
    checkLimit(
      "maxChunkBytes",
      this.innerCount * 16,
      `sharding_indexed: the index of ${this.innerCount} inner chunks per shard, in bytes,`,
    );
    this.innerSpec = {
      shape: [...chunkShape],
      dataType: shardSpec.dataType,
      fillValue: shardSpec.fillValue,
    };
    this.inner = CodecPipeline.create(
      configuration.codecs,
      this.innerSpec,
      zarrFormat,
      {},
      "sharding_indexed codecs",
    );
    this.indexPipeline = CodecPipeline.create(
      configuration.indexCodecs,
      { shape: [...this.chunksPerShard, 2], dataType: uint64, fillValue: 0n },
      zarrFormat,
      {},
      "sharding_indexed index_codecs",
    );
    const size = this.indexPipeline.encodedSize;
    if (size === undefined) {
      throw new CodecConfigError(
        "sharding_indexed: the index codecs must give the index a fixed size (no compression)",
      );
    }
    this.indexSize = size;
    this.nested = this.inner.supportsPartialIo;
    this.subchunkShape = this.nested ? this.inner.subchunkShape : [...chunkShape];
    this.subchunkGrid = new SubchunkGrid(this.chunksPerShard, chunkShape, this.subchunkShape);
  }

  /** Builds the codec from its configuration for shards of `context.spec`. @throws CodecConfigError */
  static fromConfig(configuration: JsonObject, context: CodecContext): ShardingCodec {
    return new ShardingCodec(
      parseShardingConfiguration(configuration, context.spec.shape),
      context.spec,
      context.zarrFormat,
    );
  }

  toJson(): NamedConfig {
    const c = this.configuration;
    return {
      name: this.name,
      configuration: {
        chunk_shape: [...c.chunkShape],
        codecs: c.codecs.map(namedConfigToJson),
        index_codecs: c.indexCodecs.map(namedConfigToJson),
        index_location: c.indexLocation,
      },
      mustUnderstand: true,
    };
  }

  /** Where the index is. */
  get indexLocation(): IndexLocation {
    return this.configuration.indexLocation;
  }

  /** The byte range of the index inside a shard: the first or the last `indexSize` bytes. */
  indexRange(): { offset: number; length: number } | { suffix: number } {
    return this.indexLocation === "start"
      ? { offset: 0, length: this.indexSize }
      : { suffix: this.indexSize };
  }

  /**
   * Decodes index bytes.
   * @throws DecodeError for a truncated index, ChecksumError for a crc32c mismatch
   */
  async decodeIndex(bytes: Uint8Array): Promise<ShardIndex> {
    if (bytes.length !== this.indexSize) {
      throw new DecodeError(
        `The shard index has ${bytes.length} bytes; it must have ${this.indexSize} (the shard is truncated)`,
      );
    }
    const chunk = await this.indexPipeline.decode(bytes);
    const entries = new BigUint64Array(this.innerCount * 2);
    copyStrided(
      { data: chunk.data, offset: 0, stride: chunk.stride },
      { data: entries, offset: 0, stride: cOrderStrides(chunk.shape) },
      chunk.shape,
    );
    return new ShardIndex(entries);
  }

  /** Encodes an index. */
  encodeIndex(index: ShardIndex): Promise<Uint8Array> {
    const shape = [...this.chunksPerShard, 2];
    return this.indexPipeline.encode({ data: index.entries, shape, stride: cOrderStrides(shape) });
  }

  /** The coordinates, inside its shard, of inner chunk `i` (C order). */
  innerCoords(i: number): number[] {
    const coords = new Array<number>(this.chunksPerShard.length);
    for (let axis = coords.length - 1; axis >= 0; axis--) {
      coords[axis] = i % this.chunksPerShard[axis];
      i = Math.floor(i / this.chunksPerShard[axis]);
    }
    return coords;
  }

  /** The C-order number of the inner chunk at `coords` inside its shard. */
  innerIndex(coords: readonly number[]): number {
    let i = 0;
    for (let axis = 0; axis < coords.length; axis++)
      i = i * this.chunksPerShard[axis] + coords[axis];
    return i;
  }

  /**
   * A shard from encoded inner chunks (undefined = empty), laid out in C order after (or
   * before) the index; undefined when every inner chunk is empty (the shard should not exist).
   */
  async assemble(chunks: readonly (Uint8Array | undefined)[]): Promise<Uint8Array | undefined> {
    const index = ShardIndex.empty(this.innerCount);
    let offset = this.indexLocation === "start" ? this.indexSize : 0;
    let dataSize = 0;
    chunks.forEach((bytes, i) => {
      if (!bytes) return;
      index.set(i, { offset, nbytes: bytes.length });
      offset += bytes.length;
      dataSize += bytes.length;
    });
    if (dataSize === 0 && chunks.every((c) => c === undefined)) return undefined;
    const indexBytes = await this.encodeIndex(index);
    const out = new Uint8Array(dataSize + this.indexSize);
    let at = this.indexLocation === "start" ? this.indexSize : 0;
    for (const bytes of chunks) {
      if (!bytes) continue;
      out.set(bytes, at);
      at += bytes.length;
    }
    out.set(indexBytes, this.indexLocation === "start" ? 0 : dataSize);
    return out;
  }

  async encode(chunk: Chunk): Promise<Uint8Array> {
    const { dataType, fillValue } = this.shardSpec;
    const innerShape = this.configuration.chunkShape;
    const innerStride = cOrderStrides(innerShape);
    const encoded: (Uint8Array | undefined)[] = [];
    for (let i = 0; i < this.innerCount; i++) {
      const data = dataType.create(product(innerShape));
      copyStrided(
        {
          data: chunk.data,
          offset: subchunkOffset(this.innerCoords(i), innerShape, chunk.stride),
          stride: chunk.stride,
        },
        { data, offset: 0, stride: innerStride },
        innerShape,
        dataType.lanes,
      );
      encoded.push(
        dataType.isAllFill(data, fillValue)
          ? undefined
          : await this.inner.encode({ data, shape: [...innerShape], stride: innerStride }),
      );
    }
    // A shard with no data still has to be a valid shard when someone encodes it on purpose.
    return (await this.assemble(encoded)) ?? (await this.emptyShard());
  }

  /** A shard holding only an index with every entry empty. */
  async emptyShard(): Promise<Uint8Array> {
    return this.encodeIndex(ShardIndex.empty(this.innerCount));
  }

  async decode(bytes: Uint8Array): Promise<Chunk> {
    const index = await this.decodeIndex(this.indexBytesOf(bytes));
    const { dataType, fillValue, shape } = this.shardSpec;
    const data = dataType.create(product(shape));
    const stride = cOrderStrides(shape);
    const all = Array.from({ length: this.innerCount }, (_, i) => i);
    const chunks = await new ShardPartialDecoder(
      this,
      memorySource(bytes),
      index,
    ).decodeInnerChunks(all, { workers: false }); // a whole shard decodes where it is
    // Empty inner chunks read as the fill value: fill the whole shard first, before any inner
    // chunk is copied in, so no decoded chunk is overwritten.
    if (chunks.some((chunk) => chunk === undefined)) dataType.fill(data, fillValue);
    const innerShape = this.configuration.chunkShape;
    chunks.forEach((inner, i) => {
      if (!inner) return;
      copyStrided(
        { data: inner.data, offset: 0, stride: inner.stride },
        { data, offset: subchunkOffset(this.innerCoords(i), innerShape, stride), stride },
        innerShape,
        dataType.lanes,
      );
    });
    return { data, shape: [...shape], stride };
  }

  /**
   * The index bytes of a whole shard.
   * @throws DecodeError for a shard shorter than its index
   */
  private indexBytesOf(bytes: Uint8Array): Uint8Array {
    if (bytes.length < this.indexSize) {
      throw new DecodeError(
        `The shard has ${bytes.length} bytes, fewer than its ${this.indexSize}-byte index; it is truncated`,
      );
    }
    return this.indexLocation === "start"
      ? bytes.subarray(0, this.indexSize)
      : bytes.subarray(bytes.length - this.indexSize);
  }

  /**
   * The stored bytes of every inner chunk of a whole shard (undefined for empty ones), checked
   * against the shard's size.
   * @throws DecodeError, ChecksumError for a corrupt index
   */
  async storedInnerChunks(shard: Uint8Array): Promise<(Uint8Array | undefined)[]> {
    const index = await this.decodeIndex(this.indexBytesOf(shard));
    return Array.from({ length: this.innerCount }, (_, i) => {
      const entry = index.entry(i, shard.length);
      return entry && shard.subarray(entry.offset, entry.offset + entry.nbytes);
    });
  }

  /**
   * A decoder of sub-chunks of the shard in `source`: reads the index now (one ranged read),
   * then only the inner chunks asked for. Undefined when the shard does not exist.
   * @throws DecodeError for a truncated index, ChecksumError for a corrupt one
   */
  async partialDecoder(
    source: ByteRangeSource,
    options: PartialIoOptions = {},
  ): Promise<PartialDecoder | undefined> {
    const bytes = await source.get(this.indexRange(), options);
    if (bytes === undefined) return undefined;
    return new ShardPartialDecoder(this, source, await this.decodeIndex(bytes));
  }

  /**
   * The new bytes of a shard after `writes` to some of its sub-chunks: the inner chunks they
   * touch go through the inner codecs' partial encode, the others keep their stored bytes;
   * undefined when it is left without inner chunks.
   */
  partialEncode(
    current: Uint8Array | undefined,
    writes: readonly SubchunkWrite[],
    options: PartialIoOptions = {},
  ): Promise<Uint8Array | undefined> {
    return encodeShardPartially(this, current, writes, options);
  }

  placesSubchunks(options: PartialIoOptions = {}): boolean {
    // Nested shards return their inner chunks to this decoder, which returns them in turn.
    return !this.nested && placeableIn(this.inner, poolDecoderOf(this.inner).poolFor(options));
  }

  /** Records on an error the inner chunk it happened in (its message starts with it). */
  nameInner(error: unknown, i: number): unknown {
    return locateError(error, `inner chunk [${this.innerCoords(i)}]`);
  }

  /**
   * Decodes inner chunk `i`'s bytes whole, in the worker pool `options` name (or the default
   * one), naming the inner chunk in errors.
   */
  async decodeInner(bytes: Uint8Array, i: number, options: PartialIoOptions = {}): Promise<Chunk> {
    try {
      return await decodeInPool(this.inner, bytes, options);
    } catch (error) {
      throw this.nameInner(error, i);
    }
  }

  /**
   * Decodes inner chunk `i`'s bytes in the worker pool `options` name (or the default one), the
   * worker copying `regions` of it into the shared `out`: undefined once they are there, else
   * the decoded chunk for the caller. Errors name the inner chunk.
   */
  async placeInner(
    bytes: Uint8Array,
    i: number,
    target: PlaceTarget,
    options: PartialIoOptions = {},
  ): Promise<Chunk | undefined> {
    try {
      return await decodeIntoInPool(this.inner, bytes, target, options);
    } catch (error) {
      throw this.nameInner(error, i);
    }
  }
}
