// Shared inside the @z packages, not public: the empty index entry, kept out of shard-index.ts, which the index
// re-exports whole so the build can turn it into `export *` (tools/build/split-friendly-barrels.mjs).
/** The marker of an empty inner chunk: offset and nbytes both 2^64-1. */
export const EMPTY_ENTRY = 0xffff_ffff_ffff_ffffn;
