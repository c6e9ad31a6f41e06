/**
 * The Node.js entry of `@z/zarr`: everything the browser entry has, plus the filesystem stores
 * (`FsStore`, and zip archives read from or written to files).
 * @packageDocumentation
 */

export * from "@z/store-fs";
export * from "@z/store-zip/node";
export * from "./index.js";
export * from "./locations-node.js";
