import type { ArrayMetadata } from "@z/metadata";
import { arrayMetadataToV2Json, arrayMetadataToV3Json } from "@z/metadata";
import type { Chunk } from "@z/ndarray";
import { type Readable, ReadOnlyStore } from "@z/store-core";
import type { ArrayChunks, GroupReader } from "../io/array-chunks.js";
import type { AccessOptions } from "../io/chunk-access.js";
import type { ChunkGroup } from "../io/chunk-groups.js";
import { chunkStoreOf } from "../storage/chunk-store-of.js";
import { writeEpoch } from "../write/key-lock.js";
import type { CacheCore, Decoded } from "./cache-core.js";

/**
 * The store object whose writes decide the versions of an array's chunks: the store the
 * array's chunk writes lock (see `withKeyLock`), seen through a read-only view (mode `"r"`),
 * and through the array's storage transformers, built as every array of that store builds them.
 */
export function versionStore(store: Readable, path: string, metadata: ArrayMetadata): object {
  let root = store;
  // Writes go to the store a read-only view (mode "r") wraps, never to the view.
  while (root instanceof ReadOnlyStore) ({ inner: root } = root);
  return chunkStoreOf(root, path, metadata);
}

/**
 * What decoding an array's chunks depends on, as text: its metadata document without the
 * shape (a resize keeps the chunks it does not delete) and the attributes. Two arrays opened
 * from the same document share entries; an array re-created at a path with another data type,
 * codecs or chunk shape does not see the old array's entries.
 */
export function decodingIdentity(metadata: ArrayMetadata): string {
  const doc =
    metadata.zarrFormat === 3 ? arrayMetadataToV3Json(metadata) : arrayMetadataToV2Json(metadata);
  const { shape, attributes, ...rest } = doc;
  return JSON.stringify(rest);
}

/**
 * One array's view of a chunk cache: the entry keys of its chunks (the store object's id, the
 * metadata's and the chunk's store key; for a sharded array, an inner chunk's coordinates in
 * its shard too), their versions, and the readers of its chunks through the cache. A sharded
 * array caches its inner chunks, which is what a viewer reads again, not whole shards.
 */
export class ArrayCache {
  constructor(
    private readonly core: CacheCore,
    /** What entry keys start with: the ids of the version store and of the decoding identity. */
    private readonly prefix: string,
    /** The store object whose writes decide versions (see {@link versionStore}). */
    private readonly store: object,
  ) {}

  private version(key: string): number {
    return writeEpoch(this.store, key);
  }

  /** Loads one entry through the cache (see `CacheCore.load`). */
  private load(key: string, entry: string, decode: () => Promise<Decoded>) {
    const version = this.version(key);
    return this.core.load(entry, version, () => this.version(key), decode);
  }

  private whole(chunks: ArrayChunks, coords: readonly number[], options: AccessOptions) {
    const key = chunks.stored.key(coords);
    // The whole chunk is decoded (no element hints) and in this thread's memory (no placing
    // into a shared result), since the entry must hold all of it.
    const { signal, workers } = options;
    return this.load(key, `${this.prefix}${key}`, () =>
      chunks.readChunk(coords, { signal, workers }),
    );
  }

  /** Reads groups of parts through the cache: whole chunks, or a sharded array's inner chunks. */
  async reader(chunks: ArrayChunks, options: AccessOptions): Promise<GroupReader> {
    if (chunks.subchunkShape === undefined)
      return async (group, use) => use([await this.whole(chunks, group.coords, options)]);
    const { signal, workers } = options;
    const read = await chunks.subchunkReader({ signal, workers });
    return async (group, use) => {
      const key = chunks.stored.key(group.coords);
      // The inner chunks no entry holds are read in one batch, so that the partial decoder
      // merges their byte ranges as it does without a cache. Each `load` calls its decode at
      // once, so the batch starts, a microtask later, with all of them.
      const missing: ChunkGroup["items"] = [];
      let batch: Promise<readonly (Chunk | undefined | null)[]> | undefined;
      const readMissing = async () => {
        let decoded: readonly (Chunk | undefined | null)[] = [];
        await read(
          { coords: group.coords, items: missing },
          (chunks) => {
            decoded = chunks;
          },
          () => {},
        );
        return decoded;
      };
      const loaded = group.items.map((item) =>
        this.load(key, `${this.prefix}${key}#${item.sub.join(",")}`, async () => {
          const i = missing.push(item) - 1;
          batch ??= Promise.resolve().then(readMissing);
          const chunk = (await batch)[i];
          return chunk ? { chunk, owned: false } : undefined;
        }),
      );
      use(await Promise.all(loaded));
    };
  }
}
