// Settings read where they are used, set by config.ts: private to @z/array. The other settings
// live with their own setters (metadata limits, worker pool, logging, compression paths).

/** Bytes of partial decoders (shard indexes) an array keeps in memory (default 16 MiB). */
export const settings = { shardIndexCacheBytes: 16 << 20 };
