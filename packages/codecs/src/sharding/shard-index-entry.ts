// The empty index entry: private to the @z packages. shard-index.ts holds the public side, which the
// package entry re-exports whole.
/** The marker of an empty inner chunk: offset and nbytes both 2^64-1. */
export const EMPTY_ENTRY = 0xffff_ffff_ffff_ffffn;
