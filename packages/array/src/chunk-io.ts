import { type ChunkDecodePool, CodecPipeline } from "@z/codecs";
import { writableChunk } from "@z/codecs/internal";
import { locateError } from "@z/errors";
import type { ChunkLayout, ChunkPart, WriteSource } from "@z/indexing";
import {
  type ArrayMetadata,
  type ChunkGrid,
  ChunkGridError,
  V2ChunkKeyEncoding,
} from "@z/metadata";
import { type Chunk, cOrderStrides, product } from "@z/ndarray";
import { joinKey, type Readable, type Writable } from "@z/store-core";
import type { AccessOptions, ChunkAccess } from "./chunk-access.js";
import { DEFAULT_CONCURRENCY, forEachConcurrent } from "./concurrency.js";
import { PoolDecoder } from "./pool-decode.js";
import type { UpdateKeyOptions } from "./read-modify-write.js";
import { shardingOf } from "./sharding-config.js";

/** Chunk writes (read-modify-write, key locks), loaded with the first write (see write-path.ts). */
const writePath = () => import("./write-path.js");

/** Options of chunk reads and writes. */
export interface ChunkIoOptions {
  /** Abort the operation. */
  signal?: AbortSignal;
  /** Decode in this worker pool (`false`: inline); default the global pool, if set. */
  workers?: ChunkDecodePool | false;
}

/**
 * Reads, decodes, encodes and writes the chunks of one array, one store key per chunk: where
 * the chunk keys are, the codec pipeline, and what to do about missing chunks.
 */
export class ChunkIo implements ChunkAccess {
  /** The codec pipeline of the first chunk (of every chunk, when all have one shape). */
  readonly pipeline: CodecPipeline;
  /** The chunk shape, or per-axis boundaries when chunk shapes differ (a `rectilinear` grid). */
  readonly chunkShape: ChunkLayout;
  /** Pipelines per chunk shape, for grids whose chunks differ (bounded; rebuilt when full). */
  private readonly pipelines = new Map<string, CodecPipeline>();
  /** v2 metadata without `dimension_separator` may still have `/` keys (older writers). */
  private legacySeparator: "." | "/" | undefined;
  /** Decodes chunks in a worker pool when a read asks for one. */
  private readonly poolDecoder: PoolDecoder;

  constructor(
    readonly store: Readable,
    readonly path: string,
    readonly metadata: ArrayMetadata,
  ) {
    const grid = metadata.chunkGrid;
    const where = `/${joinKey(path, metadata.zarrFormat === 3 ? "zarr.json" : ".zarray")}`;
    const sharding = shardingOf(metadata);
    if (sharding && !grid.chunkShape) checkShardEdges(grid, sharding.chunkShape, where);
    this.chunkShape = grid.chunkShape ?? grid.axes;
    this.pipeline = this.createPipeline(grid.chunkShapeAt(grid.axes.map(() => 0)));
    this.poolDecoder = new PoolDecoder(metadata.codecs, this.pipeline.spec, metadata.zarrFormat);
    const v2 = metadata.v2;
    if (v2 && v2.dimensionSeparator === undefined && metadata.shape.length > 1)
      this.legacySeparator = ".";
  }

  private createPipeline(shape: readonly number[]): CodecPipeline {
    const { metadata, path } = this;
    return CodecPipeline.create(
      metadata.codecs,
      { shape: [...shape], dataType: metadata.dataType, fillValue: metadata.fillValue },
      metadata.zarrFormat,
      {},
      `/${joinKey(path, metadata.zarrFormat === 3 ? "zarr.json" : ".zarray")} codecs`,
    );
  }

  /** The shape the chunk at `coords` is stored at. */
  shapeOf(coords: readonly number[]): number[] {
    return this.metadata.chunkGrid.chunkShapeAt(coords);
  }

  /** The codec pipeline of the chunk at `coords` (codecs are configured with the chunk's shape). */
  pipelineFor(coords: readonly number[]): CodecPipeline {
    if (this.metadata.chunkGrid.chunkShape) return this.pipeline;
    const shape = this.shapeOf(coords);
    const key = shape.join(",");
    let pipeline = this.pipelines.get(key);
    if (!pipeline) {
      if (this.pipelines.size >= 64) this.pipelines.clear();
      pipeline = this.createPipeline(shape);
      this.pipelines.set(key, pipeline);
    }
    return pipeline;
  }

  /** The store key of the chunk at grid coordinates `coords`. */
  chunkKey(coords: readonly number[]): string {
    if (this.legacySeparator === "/")
      return joinKey(this.path, new V2ChunkKeyEncoding("/").encode(coords));
    return joinKey(this.path, this.metadata.chunkKeyEncoding.encode(coords));
  }

  /** The raw stored bytes of a chunk, or undefined when it is missing. */
  async readRaw(
    coords: readonly number[],
    options: ChunkIoOptions = {},
  ): Promise<Uint8Array | undefined> {
    const bytes = await this.store.get(this.chunkKey(coords), { signal: options.signal });
    if (bytes !== undefined || this.legacySeparator !== ".") return bytes;
    // A v2 array written before dimension_separator existed may use nested keys; once one is
    // found, the array is known to use them.
    const nested = joinKey(this.path, new V2ChunkKeyEncoding("/").encode(coords));
    const found = await this.store.get(nested, { signal: options.signal });
    if (found !== undefined) this.legacySeparator = "/";
    return found;
  }

  /**
   * The decoded chunk, or undefined when it is missing (it then reads as the fill value).
   * @throws DecodeError / ChecksumError naming the chunk's key
   */
  async read(coords: readonly number[], options: ChunkIoOptions = {}): Promise<Chunk | undefined> {
    return (await this.readOwned(coords, options))?.chunk;
  }

  /**
   * The decoded chunk and whether its elements are in memory nothing else holds (a codec made
   * them, or the store returns fresh buffers), so it can be handed to a caller without a copy.
   */
  async readOwned(
    coords: readonly number[],
    options: ChunkIoOptions = {},
  ): Promise<{ chunk: Chunk; owned: boolean } | undefined> {
    const bytes = await this.readRaw(coords, options);
    if (bytes === undefined) return undefined;
    const pool = this.poolDecoder.poolFor(options);
    let chunk: Chunk;
    try {
      // Workers decode with one chunk spec: grids whose chunks differ in shape decode inline.
      if (pool && this.metadata.chunkGrid.chunkShape) {
        // A worker's result is fresh memory; only bytes nothing else holds may move to it.
        const { signal } = options;
        const transfer = this.store.freshReads === true;
        chunk = await this.poolDecoder.decode(
          pool,
          bytes,
          { signal, transfer },
          (stored) => this.pipeline.decode(stored),
          () => this.readRaw(coords, { signal }),
        );
        return { chunk, owned: true };
      }
      chunk = await this.pipelineFor(coords).decode(bytes);
    } catch (error) {
      throw locate(error, `chunk /${this.chunkKey(coords)}`, this.chunkKey(coords));
    }
    const data = chunk.data;
    const owned =
      !ArrayBuffer.isView(data) || data.buffer !== bytes.buffer || this.store.freshReads === true;
    return { chunk, owned };
  }

  readWhole(
    coords: readonly number[],
    options: AccessOptions,
  ): Promise<{ chunk: Chunk; owned: boolean } | undefined> {
    return this.readOwned(coords, options);
  }

  /**
   * A C-order chunk to be overwritten whole: chunks inside the array need no fill (every element
   * gets written); edge chunks are filled so their part outside the array holds the fill value.
   */
  newChunk(coords: readonly number[]): Chunk {
    const shape = this.metadata.shape;
    const axes = this.metadata.chunkGrid.axes;
    const inside = coords.every((c, i) => axes[i].start(c) + axes[i].size(c) <= shape[i]);
    if (!inside) return this.fillChunk(coords);
    const chunkShape = this.shapeOf(coords);
    const data = this.metadata.dataType.create(product(chunkShape));
    return { data, shape: chunkShape, stride: cOrderStrides(chunkShape) };
  }

  /**
   * A chunk filled with the fill value, in C order, of the shape of the chunk at `coords` (the
   * first chunk when not given: every chunk of a regular grid).
   */
  fillChunk(coords: readonly number[] = this.metadata.shape.map(() => 0)): Chunk {
    return writableChunk(this.metadata, this.shapeOf(coords));
  }

  /**
   * Stores a chunk, or deletes it when every element equals the fill value (a missing chunk
   * reads as the fill value, so storing it would only waste space). In turn with the other
   * writes of the same chunk in this process (see {@link replaceKey}).
   */
  async write(
    coords: readonly number[],
    chunk: Chunk,
    options: ChunkIoOptions = {},
  ): Promise<void> {
    const { replaceKey } = await writePath();
    await replaceKey(
      this.writable(),
      this.chunkKey(coords),
      await this.encodeOrDrop(coords, chunk),
      {
        signal: options.signal,
      },
    );
  }

  /** The stored form of a chunk: its encoded bytes, or undefined when it is all fill value. */
  private async encodeOrDrop(
    coords: readonly number[],
    chunk: Chunk,
  ): Promise<Uint8Array | undefined> {
    const { dataType, fillValue } = this.metadata;
    if (dataType.isAllFill(chunk.data, fillValue)) return undefined;
    return this.pipelineFor(coords).encode(chunk);
  }

  /**
   * Reads a chunk, lets `change` modify it, and stores the result (or deletes it when it is all
   * fill value) without losing concurrent writes of the same chunk (see {@link updateKey}):
   * `change` may run again on a newer stored chunk.
   */
  async update(
    coords: readonly number[],
    change: (chunk: Chunk) => void,
    options: ChunkIoOptions & Pick<UpdateKeyOptions, "conditional"> = {},
  ): Promise<void> {
    // A v2 array from before dimension_separator may keep its chunks under nested keys;
    // reading one chunk finds out which, before the key to update is chosen.
    if (this.legacySeparator === ".") await this.readRaw(coords, options);
    const key = this.chunkKey(coords);
    const { updateKey } = await writePath();
    await updateKey(
      this.writable(),
      key,
      async (bytes) => {
        let stored: Chunk | undefined;
        if (bytes !== undefined) {
          try {
            stored = await this.pipelineFor(coords).decode(bytes);
          } catch (error) {
            throw locate(error, `chunk /${key}`);
          }
        }
        const chunk = writableChunk(this.metadata, this.shapeOf(coords), stored);
        change(chunk);
        return this.encodeOrDrop(coords, chunk);
      },
      options,
    );
  }

  private writable(): Readable & Writable {
    return this.store as Readable & Writable;
  }

  async readParts(
    parts: Iterable<ChunkPart>,
    visit: (part: ChunkPart, chunk: Chunk | undefined) => void,
    options: AccessOptions,
  ): Promise<void> {
    const concurrency = options.concurrency ?? DEFAULT_CONCURRENCY;
    const initial = this.reusableReadSize(options);
    if (initial === undefined) {
      await forEachConcurrent(
        parts,
        concurrency,
        async (part) => visit(part, await this.read(part.coords, options)),
        options.signal,
      );
      return;
    }
    // Each chunk is read into one of a few buffers (one per concurrent read), decoded inline,
    // copied out by `visit`, and the buffer reused: no allocation, page faults or garbage per
    // stored chunk (an uncompressed chunk's elements are a view of the buffer). A stored chunk
    // larger than the buffers is read the usual way once, and later buffers are made that large.
    let size = initial;
    const free: Uint8Array[] = [];
    await forEachConcurrent(
      parts,
      concurrency,
      async (part) => {
        let buffer = free.pop();
        if (buffer === undefined || buffer.length < size) buffer = new Uint8Array(size);
        try {
          const chunk = await this.readInto(part.coords, buffer, options, (needed) => {
            size = Math.max(size, needed);
          });
          visit(part, chunk);
        } finally {
          free.push(buffer);
        }
      },
      options.signal,
    );
  }

  /**
   * The size of the buffers chunks are read into when `readParts` can reuse them, else
   * undefined. It can when the store reads into a caller's buffer (`getInto`), every chunk has
   * one shape, decoding runs inline (a worker would take the buffer) and ends in the `bytes`
   * codec, whose decoders keep nothing of their input once done. The size is that of a decoded
   * chunk, which holds the stored one of every compressed chunk but the incompressible.
   */
  private reusableReadSize(options: ChunkIoOptions): number | undefined {
    const { pipeline, metadata, store } = this;
    const shape = metadata.chunkGrid.chunkShape;
    if (store.getInto === undefined || shape === undefined) return undefined;
    if (pipeline.arrayToBytes.codec.name !== "bytes") return undefined;
    const plain = pipeline.arrayToArray.length === 0 && pipeline.bytesToBytes.length === 0;
    if (!plain && this.poolDecoder.poolFor(options) !== undefined) return undefined;
    const size = product(shape) * metadata.dataType.itemSize;
    return Number.isSafeInteger(size) && size > 0 ? size : undefined;
  }

  /**
   * The chunk at `coords` decoded from its stored bytes read into `buffer`, or undefined when it
   * is missing. A stored chunk larger than `buffer` is read the usual way (`grow` hears its size).
   */
  private async readInto(
    coords: readonly number[],
    buffer: Uint8Array,
    options: ChunkIoOptions,
    grow: (size: number) => void,
  ): Promise<Chunk | undefined> {
    const key = this.chunkKey(coords);
    const size = await this.store.getInto?.(key, buffer, { signal: options.signal });
    if (size !== undefined && size <= buffer.length) {
      try {
        return await this.pipeline.decode(buffer.subarray(0, size));
      } catch (error) {
        throw locate(error, `chunk /${key}`, key);
      }
    }
    if (size !== undefined) grow(size);
    // Missing: unless a v2 array may keep it under a nested key (`readRaw` looks there).
    else if (this.legacySeparator !== ".") return undefined;
    return this.read(coords, options);
  }

  async writeParts(
    parts: Iterable<ChunkPart>,
    source: WriteSource,
    options: AccessOptions,
    done: () => void,
  ): Promise<void> {
    const { dataType, fillValue, shape } = this.metadata;
    const scalarIsFill = "scalar" in source && isFill(dataType, source.scalar, fillValue);
    await forEachConcurrent(
      parts,
      options.concurrency ?? DEFAULT_CONCURRENCY,
      async (part) => {
        const full = part.covers(this.chunkShape, shape);
        if (full && scalarIsFill) {
          await this.delete(part.coords, options);
        } else if (full) {
          const chunk = this.newChunk(part.coords);
          part.write(chunk, source, dataType);
          await this.write(part.coords, chunk, options);
        } else {
          await this.update(part.coords, (chunk) => part.write(chunk, source, dataType), options);
        }
        done();
      },
      options.signal,
    );
  }

  /** A writable C-order copy of a stored chunk (or a fill-valued chunk when it is missing). */
  async readForUpdate(coords: readonly number[], options: ChunkIoOptions = {}): Promise<Chunk> {
    return writableChunk(this.metadata, this.shapeOf(coords), await this.read(coords, options));
  }

  /** Deletes a chunk, in turn with the other writes of it in this process. */
  async delete(coords: readonly number[], options: ChunkIoOptions = {}): Promise<void> {
    const { replaceKey } = await writePath();
    await replaceKey(this.writable(), this.chunkKey(coords), undefined, {
      signal: options.signal,
    });
  }
}

/**
 * Checks that the inner chunks of a sharded array divide every shard of a grid whose shards
 * differ in shape (the sharding codec needs a whole number of inner chunks per shard); then
 * the inner chunks form one regular grid over the array.
 * @throws ChunkGridError naming the axis and the edge length
 */
function checkShardEdges(grid: ChunkGrid, inner: readonly number[], where: string): void {
  grid.axes.forEach((axis, i) => {
    const bad = axis.edgeLengths().find((length) => length % inner[i] !== 0);
    if (bad !== undefined) {
      throw new ChunkGridError(
        `${where}: the sharding_indexed inner chunk shape [${inner}] must divide every shard edge length of the ${grid.name} chunk grid; axis ${i} has a shard of length ${bad}`,
      );
    }
  });
}

/**
 * A C-order chunk of `shape` that a write may modify: a copy of `stored` when given (decoded
 * chunks may be views of the store's own buffer, never modified in place), else the fill value.
 */
export { writableChunk };

/** Whether a scalar equals the fill value (NaN equal to NaN), by the data type's own rule. */
export function isFill(
  dataType: ArrayMetadata["dataType"],
  value: unknown,
  fillValue: unknown,
): boolean {
  const one = dataType.create(1);
  dataType.setElement(one, 0, value);
  return dataType.isAllFill(one, fillValue);
}

/**
 * Prefixes an error message with where it happened (a chunk key, a node path); with `key`, also
 * records the store key on `@z` errors that do not name one yet (see `locateError`).
 */
export function locate(error: unknown, where: string, key?: string): unknown {
  return locateError(error, where, { key });
}
