import { type Chunk, type JsonObject, type NamedConfig, uint64 } from "@z/metadata";
import {
  checkLimit,
  cOrderStrides,
  copyStrided,
  namedConfigToJson,
  product,
} from "@z/metadata/internal";
import { CodecConfigError, DecodeError } from "../errors.js";
import { CodecPipeline } from "../pipeline.js";
import type { ArrayToBytesCodec, ChunkSpec, CodecContext } from "../types.js";
import {
  type IndexLocation,
  parseShardingConfiguration,
  type ShardingConfiguration,
} from "./config.js";
import { ShardIndex } from "./shard-index.js";

/**
 * The `sharding_indexed` codec: a shard is many inner chunks, each encoded by the inner codecs,
 * stored one after another with an index of `(offset, nbytes)` pairs (uint64) at the start or
 * end. Inner chunks equal to the fill value are left out (marked empty in the index).
 *
 * `encode`/`decode` handle whole shards. Arrays read and write sharded data through the
 * pieces below instead (`indexRange`, `decodeIndex`, `inner`, `assemble`), fetching only the
 * index and the inner chunks a selection needs.
 */
export class ShardingCodec implements ArrayToBytesCodec {
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

  /** The element offset, in a C-order shard, of inner chunk `i`'s first element. */
  private innerOffset(i: number, shardStride: readonly number[]): number {
    return this.innerCoords(i).reduce(
      (sum, c, axis) => sum + c * this.configuration.chunkShape[axis] * shardStride[axis],
      0,
    );
  }

  async encode(chunk: Chunk, spec: ChunkSpec): Promise<Uint8Array> {
    const { dataType, fillValue } = spec;
    const innerShape = this.configuration.chunkShape;
    const innerStride = cOrderStrides(innerShape);
    const encoded: (Uint8Array | undefined)[] = [];
    for (let i = 0; i < this.innerCount; i++) {
      const data = dataType.create(product(innerShape));
      const offset = this.innerCoords(i).reduce(
        (sum, c, axis) => sum + c * innerShape[axis] * chunk.stride[axis],
        0,
      );
      copyStrided(
        { data: chunk.data, offset, stride: chunk.stride },
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

  async decode(bytes: Uint8Array, spec: ChunkSpec): Promise<Chunk> {
    if (bytes.length < this.indexSize) {
      throw new DecodeError(
        `The shard has ${bytes.length} bytes, fewer than its ${this.indexSize}-byte index; it is truncated`,
      );
    }
    const indexBytes =
      this.indexLocation === "start"
        ? bytes.subarray(0, this.indexSize)
        : bytes.subarray(bytes.length - this.indexSize);
    const index = await this.decodeIndex(indexBytes);
    const { dataType, fillValue, shape } = spec;
    const data = dataType.create(product(shape));
    const stride = cOrderStrides(shape);
    const innerShape = this.configuration.chunkShape;
    // Where each inner chunk is, checked before anything is decoded. The entries are in C order
    // over the inner chunks, but the bytes they point to may be in any order (zarr-python writes
    // Morton order), with gaps between them.
    const entries = Array.from({ length: this.innerCount }, (_, i) => index.entry(i, bytes.length));
    // Empty inner chunks read as the fill value: fill the whole shard first, before any inner
    // chunk is copied in, so no decoded chunk is overwritten.
    if (entries.some((entry) => entry === undefined)) dataType.fill(data, fillValue);
    for (const [i, entry] of entries.entries()) {
      if (!entry) continue;
      const inner = await this.decodeInner(
        bytes.subarray(entry.offset, entry.offset + entry.nbytes),
        i,
      );
      copyStrided(
        { data: inner.data, offset: 0, stride: inner.stride },
        { data, offset: this.innerOffset(i, stride), stride },
        innerShape,
        dataType.lanes,
      );
    }
    return { data, shape: [...shape], stride };
  }

  /** Decodes inner chunk `i`'s bytes, naming the inner chunk in errors. */
  async decodeInner(bytes: Uint8Array, i: number): Promise<Chunk> {
    try {
      return await this.inner.decode(bytes);
    } catch (error) {
      if (error instanceof Error)
        error.message = `inner chunk [${this.innerCoords(i)}]: ${error.message}`;
      throw error;
    }
  }
}
