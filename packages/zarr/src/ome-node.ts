/**
 * The Node.js entry of `@z/zarr/ome`: the browser entry's, plus local paths, `file:` URLs and
 * zip files on disk as locations.
 * @packageDocumentation
 */
import "./locations-node.js";

export * from "./ome.js";
