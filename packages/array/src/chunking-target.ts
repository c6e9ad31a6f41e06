// The default chunk size target: private to the @z packages. chunking.ts holds the public side,
// which the package entry re-exports whole.
/** The chunk size (in bytes) that automatic chunking aims for. */
export const TARGET_CHUNK_BYTES = 1 << 20;
