/**
 * A Zarr store in a folder of the local file system (Node.js): validated keys, atomic writes,
 * ranged reads.
 * @packageDocumentation
 */
export { FsStore, type FsStoreOptions } from "./fs-store.js";
