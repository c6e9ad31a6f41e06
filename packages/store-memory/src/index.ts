/**
 * An in-memory Zarr store.
 * @packageDocumentation
 */
export { MemoryStore, type MemoryStoreInit } from "./memory-store.js";
