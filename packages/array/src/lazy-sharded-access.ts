// The sharded read and write path (ShardedAccess: index caching, range coalescing, partial
// shard rewrites) loads with the first read or write of a sharded array, so that an app whose
// arrays are not sharded does not download it. The sharding codec itself loads on first use
// too (it registers a loader in @z/codecs), so this file names it only as a type.
import type { ArrayToBytesCodec, ShardingCodec } from "@z/codecs";
import type { ChunkPart, WriteSource } from "@z/indexing";
import type { Chunk } from "@z/metadata";
import type { AccessOptions, ChunkAccess } from "./chunk-access.js";
import type { ChunkIo } from "./chunk-io.js";
import type { ShardedAccess } from "./sharded-access.js";

/**
 * Whether an array-to-bytes codec is the built-in sharding codec. A duck-typed check by its
 * name and the members ShardedAccess uses, so that this module does not import the codec class
 * (a codec registered under the same name without them is decoded whole, as any codec).
 */
export function isShardingCodec(codec: ArrayToBytesCodec): codec is ShardingCodec {
  const candidate = codec as Partial<ShardingCodec>;
  return (
    codec.name === "sharding_indexed" &&
    Array.isArray(candidate.configuration?.chunkShape) &&
    candidate.inner !== undefined &&
    candidate.innerSpec !== undefined
  );
}

/** A ChunkAccess that loads ShardedAccess with its first read or write and then defers to it. */
export class LazyShardedAccess implements ChunkAccess {
  readonly chunkShape: readonly number[];
  private loaded?: Promise<ShardedAccess>;

  constructor(
    private readonly io: ChunkIo,
    private readonly codec: ShardingCodec,
  ) {
    this.chunkShape = codec.configuration.chunkShape;
  }

  private access(): Promise<ShardedAccess> {
    this.loaded ??= import("./sharded-access.js").then(
      ({ ShardedAccess }) => new ShardedAccess(this.io, this.codec),
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
