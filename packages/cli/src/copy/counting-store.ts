import type { Readable, Writable } from "@z/zarr";

/** Chunks (or shards) written to a store and their bytes, metadata documents left out. */
export interface WriteCounts {
  /** Chunk (or shard) objects written. */
  chunks: number;
  /** Their bytes. */
  bytes: number;
}

const METADATA_DOCUMENTS = new Set(["zarr.json", ".zarray", ".zgroup", ".zattrs", ".zmetadata"]);

/**
 * The same store, with every chunk written through it counted in `counts`. Everything else
 * (reads, listings, conditional writes, versions) reaches the store unchanged, whatever
 * capabilities it has.
 */
export function countingWrites(store: Readable, counts: WriteCounts): Readable & Writable {
  const set: Writable["set"] = async (key, value, options) => {
    await (store as Readable & Writable).set(key, value, options);
    if (!METADATA_DOCUMENTS.has(key.slice(key.lastIndexOf("/") + 1))) {
      counts.chunks++;
      counts.bytes += value.length;
    }
  };
  return new Proxy(store as Readable & Writable, {
    get(target, property) {
      if (property === "set") return set;
      const value = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
