// The sub-chunk read and write path (ShardedAccess: index caching, range coalescing, partial
// shard rewrites) loads with the first read or write of an array whose pipeline reads and
// writes sub-chunks, so that an app whose arrays are not sharded does not download it.
import type { ChunkPart, WriteSource } from "@z/indexing";
import type { Chunk } from "@z/ndarray";
import type { AccessOptions, ChunkAccess } from "./chunk-access.js";
import type { ChunkIo } from "./chunk-io.js";
import type { ShardedAccess } from "./sharded-access.js";

/** A ChunkAccess that loads ShardedAccess with its first read or write and then defers to it. */
export class LazyShardedAccess implements ChunkAccess {
  readonly chunkShape: readonly number[];
  private loaded?: Promise<ShardedAccess>;

  constructor(private readonly io: ChunkIo) {
    this.chunkShape = io.pipeline.subchunkShape;
  }

  private access(): Promise<ShardedAccess> {
    this.loaded ??= import("./sharded-access.js").then(
      ({ ShardedAccess }) => new ShardedAccess(this.io),
      (error: unknown) => {
        this.loaded = undefined; // a failed load (network) may succeed later
        throw error;
      },
    );
    return this.loaded;
  }

  async readParts(
    parts: Iterable<ChunkPart>,
    visit: (part: ChunkPart, chunk: Chunk | undefined) => void,
    options: AccessOptions,
  ): Promise<void> {
    return (await this.access()).readParts(parts, visit, options);
  }

  async writeParts(
    parts: Iterable<ChunkPart>,
    source: WriteSource,
    options: AccessOptions,
    done: () => void,
  ): Promise<void> {
    return (await this.access()).writeParts(parts, source, options, done);
  }
}
