import { type ChunkDecodePool, CodecPipeline } from "@z/codecs";
import { PoolDecoder, placeableIn, writableChunk } from "@z/codecs/internal";
import type { ArrayMetadata } from "@z/metadata";
import { type Chunk, type IndexRange, product } from "@z/ndarray";

/** Where and how a whole chunk decodes. */
export interface WholeDecodeOptions {
  /** Abort the decode. */
  signal?: AbortSignal;
  /** Decode in this worker pool (`false`: inline); default the global pool, if set. */
  workers?: ChunkDecodePool | false;
  /** Whether nothing else holds `bytes`: a worker may then take them, and a result may view them. */
  fresh?: boolean;
  /** Reads the bytes again, when a worker took them and then could not decode them. */
  again?: () => Promise<Uint8Array | undefined>;
  /**
   * The only elements of the chunk (C-order index ranges) the caller will read, when it reads
   * part of it on this thread: decoders that can (blosc) skip the rest, whose values are then
   * unspecified.
   */
  elements?: readonly IndexRange[];
}

/**
 * Runs an array's codec pipelines: the pipeline of each chunk shape (cached), whole-chunk
 * decodes in a worker pool or inline, and the buffers a read may reuse from chunk to chunk.
 * Knows nothing of store keys.
 */
export class PipelineRunner {
  /** The codec pipeline of the first chunk (of every chunk, when all have one shape). */
  readonly pipeline: CodecPipeline;
  /** Pipelines per chunk shape, for grids whose chunks differ (bounded; rebuilt when full). */
  private readonly pipelines = new Map<string, CodecPipeline>();
  /** Decodes chunks in a worker pool when a read asks for one. */
  readonly poolDecoder: PoolDecoder;

  constructor(
    readonly metadata: ArrayMetadata,
    /** Names the metadata document in errors. */
    private readonly where: string,
  ) {
    const grid = metadata.chunkGrid;
    this.pipeline = this.createPipeline(grid.chunkShapeAt(grid.axes.map(() => 0)));
    this.poolDecoder = new PoolDecoder(metadata.codecs, this.pipeline.spec, metadata.zarrFormat);
  }

  private createPipeline(shape: readonly number[]): CodecPipeline {
    const { metadata } = this;
    return CodecPipeline.create(
      metadata.codecs,
      { shape: [...shape], dataType: metadata.dataType, fillValue: metadata.fillValue },
      metadata.zarrFormat,
      {},
      `${this.where} codecs`,
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

  /**
   * A chunk filled with the fill value, in C order, of the shape of the chunk at `coords` (the
   * first chunk when not given: every chunk of a regular grid).
   */
  fillChunk(coords: readonly number[] = this.metadata.shape.map(() => 0)): Chunk {
    return writableChunk(this.metadata, this.shapeOf(coords));
  }

  /**
   * Decodes the whole chunk at `coords` from its stored bytes, with whether its elements are in
   * memory nothing else holds (a codec or a worker made them, or the bytes were fresh), so it
   * can be handed to a caller without a copy.
   * @throws DecodeError / ChecksumError
   */
  async decode(
    coords: readonly number[],
    bytes: Uint8Array,
    options: WholeDecodeOptions = {},
  ): Promise<{ chunk: Chunk; owned: boolean }> {
    const pool = this.poolDecoder.poolFor(options);
    // Workers decode with one chunk spec: grids whose chunks differ in shape decode inline.
    if (pool && this.metadata.chunkGrid.chunkShape) {
      const { signal, fresh } = options;
      // A worker's result is fresh memory; only bytes nothing else holds may move to it.
      const chunk = await this.poolDecoder.decode(
        pool,
        bytes,
        { signal, transfer: fresh === true },
        (stored) => this.pipeline.decode(stored),
        options.again,
      );
      return { chunk, owned: true };
    }
    const { elements } = options;
    const chunk = await this.pipelineFor(coords).decode(bytes, elements ? { elements } : {});
    const data = chunk.data;
    const owned =
      !ArrayBuffer.isView(data) || data.buffer !== bytes.buffer || options.fresh === true;
    return { chunk, owned };
  }

  /**
   * Whether a read with these options can have workers copy whole chunks' parts into a result
   * in shared memory ({@link place}): a pool decodes them (one that offers `decodeInto`), every
   * chunk has one shape, elements are TypedArray slots, and chunks are large enough for the pool
   * to send them to a worker at all.
   */
  placesInWorkers(options: WholeDecodeOptions): boolean {
    if (!this.metadata.chunkGrid.chunkShape) return false;
    return placeableIn(this.pipeline, this.poolDecoder.poolFor(options));
  }

  /**
   * {@link placesInWorkers} for an array read in sub-chunks (sharded): whether its pipeline's
   * partial decoder sends them to a pool whose workers copy their parts into the result.
   */
  innerPlacesInWorkers(options: WholeDecodeOptions): boolean {
    return this.pipeline.subchunksPlaceable(options);
  }

  /**
   * The size of the buffers whole chunks may be read into and decoded from, one read after the
   * other, else undefined. They may when every chunk has one shape, decoding runs inline (a
   * worker would take the buffer) and ends in the `bytes` codec, whose decoders keep nothing of
   * their input once done. The size is that of a decoded chunk, which holds the stored one of
   * every compressed chunk but the incompressible.
   */
  reusableBufferSize(options: WholeDecodeOptions): number | undefined {
    const { pipeline, metadata } = this;
    const shape = metadata.chunkGrid.chunkShape;
    if (shape === undefined || pipeline.arrayToBytes.codec.name !== "bytes") return undefined;
    const plain = pipeline.arrayToArray.length === 0 && pipeline.bytesToBytes.length === 0;
    if (!plain && this.poolDecoder.poolFor(options) !== undefined) return undefined;
    const size = product(shape) * metadata.dataType.itemSize;
    return Number.isSafeInteger(size) && size > 0 ? size : undefined;
  }
}
