/**
 * Zarr stores for web browsers: {@link IndexedDBStore} (an IndexedDB database of the origin)
 * and {@link OPFSStore} (a folder of the Origin Private File System), both readable, writable
 * and listable, with conditional writes.
 * @packageDocumentation
 */
export { BrowserStorageError } from "./errors.js";
export * from "./indexeddb-store.js";
export * from "./opfs-store.js";
