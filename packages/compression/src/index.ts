/**
 * Raw compression algorithms and checksums, with no Zarr concepts: LZ4 (block, HC and frame),
 * zstd, deflate (zlib and gzip), bzip2, LZMA (.xz, .lzma, raw LZMA2), snappy, BloscLZ, zfp, CRC-32,
 * CRC-32C, Adler-32, Fletcher-32, XXH32 and XXH64. Each runs natively where the platform has it
 * (node:zlib in Node), else in WebAssembly or JavaScript; heavy parts load on first use. Every
 * decoder bounds its output and reports bad data as a {@link DecompressionError}.
 *
 * Subpaths (`@z/compression/lz4`, `/zstd`, `/deflate`, `/deflate-sync`, `/checksums`, `/xxhash`, `/snappy`, `/blosclz`,
 * `/bz2`, `/lzma`, `/zfp`) hold one family each, for bundles that need only that one.
 * @packageDocumentation
 */
export * from "./blosclz.js";
export * from "./bz2.js";
export * from "./checksums.js";
export * from "./deflate.js";
export * from "./deflate-sync.js";
export * from "./errors.js";
export * from "./lz4.js";
export * from "./lzma.js";
export * from "./paths.js";
export * from "./snappy.js";
export * from "./xxhash.js";
export * from "./zfp.js";
export * from "./zstd.js";
