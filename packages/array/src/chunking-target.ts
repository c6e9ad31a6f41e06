// Shared inside the @z packages, not public: the default chunk size target, kept out of chunking.ts, which the index
// re-exports whole so the build can turn it into `export *` (tools/build/split-friendly-barrels.mjs).
/** The chunk size (in bytes) that automatic chunking aims for. */
export const TARGET_CHUNK_BYTES = 1 << 20;
