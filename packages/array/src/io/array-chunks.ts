import { locateError } from "@z/errors";
import type { ChunkLayout, ChunkPart, WriteSource } from "@z/indexing";
import { type ArrayMetadata, type ChunkGrid, ChunkGridError } from "@z/metadata";
import type { Chunk, IndexRange } from "@z/ndarray";
import { joinKey, type Readable } from "@z/store-core";
import type { ChunkCache } from "../cache/chunk-cache.js";
import { shardingOf } from "../create/sharding-config.js";
import {
  loadElementHints,
  loadPartialReads,
  loadPlacement,
  loadWritePath,
} from "../lazy-features.js";
import { chunkStoreOf } from "../storage/chunk-store-of.js";
import type { AccessOptions, ChunkAccess } from "./chunk-access.js";
import { type ChunkGroup, groupParts } from "./chunk-groups.js";
import { ChunkStore } from "./chunk-store.js";
import { DEFAULT_CONCURRENCY, forEachConcurrent } from "./concurrency.js";
import type { PartialReads } from "./partial-reads.js";
import { PipelineRunner } from "./pipeline-runner.js";

/**
 * Decodes the chunks of a group and hands them to `use`, in the order of its items; or has a
 * worker copy the group's parts into the shared result and calls `placed`.
 */
export type GroupReader = (
  group: ChunkGroup,
  use: (chunks: readonly (Chunk | undefined | null)[]) => void,
  placed: () => void,
) => Promise<void>;

/**
 * How selections reach the chunks of one array: the parts of a selection are grouped by the
 * stored chunk they fall in, and each group goes to the chunk's codec pipeline, sub-chunk by
 * sub-chunk through its partial decoder and encoder when it offers them (a sharding codec with
 * nothing around it, nested sharding included), else whole. Keys, locks and read-modify-write
 * are the {@link ChunkStore}'s; pipelines, worker pools and reused buffers the
 * {@link PipelineRunner}'s.
 */
export class ArrayChunks implements ChunkAccess {
  /** Where the chunks are stored. */
  readonly stored: ChunkStore;
  /** The codec pipelines of the chunks. */
  readonly runner: PipelineRunner;
  /**
   * The shape selections are projected onto when stored chunks are read and written in parts
   * (a sharded array's innermost chunks); undefined when they are read and written whole.
   */
  readonly subchunkShape: readonly number[] | undefined;
  readonly chunkShape: ChunkLayout;
  /**
   * Reads one whole chunk (see {@link ChunkAccess.readWhole}); only for chunks read whole, and
   * without a cache.
   */
  readonly readWhole?: ChunkAccess["readWhole"];
  /** The sub-chunk reads, loaded with the first read of an array read in parts. */
  private partialReads?: Promise<PartialReads>;

  constructor(
    /** The store the array was opened in (its chunks go through `stored`). */
    readonly store: Readable,
    path: string,
    readonly metadata: ArrayMetadata,
    /** The decoded-chunk cache reads go through, when the array was opened with one. */
    readonly cache?: ChunkCache,
  ) {
    const grid = metadata.chunkGrid;
    const where = `/${joinKey(path, metadata.zarrFormat === 3 ? "zarr.json" : ".zarray")}`;
    const sharding = shardingOf(metadata);
    if (sharding && !grid.chunkShape) checkShardEdges(grid, sharding.chunkShape, where);
    this.stored = new ChunkStore(chunkStoreOf(store, path, metadata), path, metadata);
    this.runner = new PipelineRunner(metadata, where);
    const { pipeline } = this.runner;
    this.subchunkShape = pipeline.supportsPartialIo ? pipeline.subchunkShape : undefined;
    this.chunkShape = this.subchunkShape ?? grid.chunkShape ?? grid.axes;
    // With a cache, a whole chunk is read through readParts, which copies it out of its entry.
    if (this.subchunkShape === undefined && !cache)
      this.readWhole = (coords, options) => this.readChunk(coords, options);
  }

  /** The parts of a selection grouped by stored chunk. */
  groups(parts: Iterable<ChunkPart>): Iterable<ChunkGroup> {
    return groupParts(parts, this.metadata.chunkGrid.axes, this.subchunkShape);
  }

  /**
   * The whole decoded chunk at grid coordinates `coords` (a whole shard, for a sharded array),
   * with whether its memory is the caller's to keep; undefined when it is missing.
   * @throws DecodeError / ChecksumError naming the chunk's key
   */
  async readChunk(
    coords: readonly number[],
    options: Pick<AccessOptions, "signal" | "workers"> & { elements?: readonly IndexRange[] } = {},
  ): Promise<{ chunk: Chunk; owned: boolean } | undefined> {
    const { signal } = options;
    const bytes = await this.stored.get(coords, { signal });
    if (bytes === undefined) return undefined;
    try {
      return await this.runner.decode(coords, bytes, {
        ...options,
        fresh: this.stored.freshReads,
        again: () => this.stored.get(coords, { signal }),
      });
    } catch (error) {
      throw located(error, this.stored.key(coords));
    }
  }

  placesInWorkers(options: AccessOptions): boolean {
    if (this.subchunkShape === undefined) return this.runner.placesInWorkers(options);
    // A sharded array: its inner chunks go to the pool (see the sharding codec's partial decoder).
    return this.runner.innerPlacesInWorkers(options);
  }

  async readParts(
    parts: Iterable<ChunkPart>,
    visit: (part: ChunkPart, chunk: Chunk | undefined, placed?: boolean) => void,
    options: AccessOptions,
  ): Promise<void> {
    const groups = this.groups(parts);
    const read = this.cache
      ? await this.cache.reader(this, options)
      : this.subchunkShape
        ? await this.subchunkReader(options)
        : options.placeInto && this.placesInWorkers(options)
          ? (await loadPlacement()).placingReader(this, options, options.placeInto)
          : await this.wholeReader(options);
    await forEachConcurrent(
      groups,
      options.concurrency ?? DEFAULT_CONCURRENCY,
      (group) =>
        read(
          group,
          (chunks) => {
            group.items.forEach(({ part }, k) => {
              const chunk = chunks[k];
              if (chunk === null) visit(part, undefined, true);
              else visit(part, chunk);
            });
          },
          () => {
            for (const { part } of group.items) visit(part, undefined, true);
          },
        ),
      options.signal,
    );
  }

  /** Reads groups through the pipeline's partial decoder (the cache's reads of them too). */
  async subchunkReader(options: AccessOptions): Promise<GroupReader> {
    this.partialReads ??= loadPartialReads().then(
      ({ PartialReads }) => new PartialReads(this.stored, (c) => this.runner.pipelineFor(c)),
      (error: unknown) => {
        this.partialReads = undefined; // a failed load (network) may succeed later
        throw error;
      },
    );
    const reads = await this.partialReads;
    const { signal, workers, placeInto } = options;
    return async (group, use) => use(await reads.read(group, { signal, workers }, placeInto));
  }

  /**
   * Reads groups of one whole chunk each. When the runner allows it, each chunk is read into one
   * of a few buffers (one per concurrent read), decoded inline, visited and the buffer reused: no
   * allocation, page faults or garbage per stored chunk (an uncompressed chunk's elements are a
   * view of the buffer). A stored chunk larger than the buffers is read the usual way once, and
   * later buffers are made that large.
   */
  private async wholeReader(options: AccessOptions): Promise<GroupReader> {
    // Blosc chunks decode only the blocks the parts touch; other codecs have no use for it.
    const hints = this.runner.pipeline.usesElementHints ? await loadElementHints() : undefined;
    const elementsOf = (group: ChunkGroup) =>
      hints?.elementsOf(group, this.runner.shapeOf(group.coords));
    const withElements = (group: ChunkGroup) => {
      const elements = elementsOf(group);
      return elements ? { ...options, elements } : options;
    };
    const initial = this.stored.readsInto ? this.runner.reusableBufferSize(options) : undefined;
    if (initial === undefined)
      return async (group, use) =>
        use([(await this.readChunk(group.coords, withElements(group)))?.chunk]);
    let size = initial;
    const free: Uint8Array[] = [];
    return async (group, use) => {
      const { coords } = group;
      let buffer = free.pop();
      if (buffer === undefined || buffer.length < size) buffer = new Uint8Array(size);
      try {
        const read = await this.stored.getInto(coords, buffer, options);
        if (typeof read === "number") {
          size = Math.max(size, read);
          use([(await this.readChunk(coords, withElements(group)))?.chunk]);
          return;
        }
        let chunk: Chunk | undefined;
        try {
          const elements = elementsOf(group);
          const pipeline = this.runner.pipelineFor(coords);
          chunk = read && (await pipeline.decode(read, elements ? { elements } : {}));
        } catch (error) {
          throw located(error, this.stored.key(coords));
        }
        use([chunk]);
      } finally {
        free.push(buffer);
      }
    };
  }

  async writeParts(
    parts: Iterable<ChunkPart>,
    source: WriteSource,
    options: AccessOptions,
    done: () => void,
  ): Promise<void> {
    const { writeGroups } = await loadWritePath();
    await writeGroups(this, this.groups(parts), source, options, done);
  }
}

/** An error located at a chunk's key. */
export function located(error: unknown, key: string): unknown {
  return locateError(error, `chunk /${key}`, { key });
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
