/**
 * The xxHash hashes XXH32 (LZ4 frame checksums) and XXH64 (zstd content checksums), seed 0.
 * @packageDocumentation
 */
export { xxhash32 } from "./checksums/xxhash32.js";
export { xxhash64 } from "./checksums/xxhash64.js";
