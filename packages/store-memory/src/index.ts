/**
 * An in-memory Zarr store.
 * @packageDocumentation
 */
export * from "./memory-store.js";
