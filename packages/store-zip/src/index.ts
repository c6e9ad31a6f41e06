/**
 * Zarr stores in zip archives: random-access reads through byte ranges (from memory, another
 * store such as an HttpStore, or a local file with `@z/store-zip/node`), zip64, and streaming
 * writes of stored entries. Node-only helpers (local files) live in `@z/store-zip/node`.
 * @packageDocumentation
 */
export * from "./byte-source.js";
export * from "./errors.js";
export type { ZipEntry } from "./format.js";
export { ZipReader } from "./reader.js";
export * from "./writer.js";
export * from "./zip-store.js";
