/** The chunk size (in bytes) that automatic chunking aims for. */
export const TARGET_CHUNK_BYTES = 1 << 20;
