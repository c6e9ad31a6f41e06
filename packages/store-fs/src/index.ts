/**
 * A Zarr store in a folder of the local file system (Node.js): validated keys, atomic writes,
 * ranged reads.
 * @packageDocumentation
 */
export { type FsAction, FsError, OutsideRootError } from "./fs-errors.js";
export * from "./fs-store.js";
