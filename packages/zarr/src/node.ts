/**
 * The Node.js entry of `@z/zarr`: everything the browser entry has, plus the filesystem stores
 * (`FsStore`, and zip archives read from or written to files).
 * @packageDocumentation
 */

// Registers the local paths, `file:` URLs and zip files on disk as store locations.
import "./locations-node.js";

export {
  type FsAction,
  FsError,
  FsStore,
  type FsStoreOptions,
  OutsideRootError,
} from "@z/store-fs";
export {
  createZipFile,
  type FileSinkOptions,
  type FileSourceOptions,
  fileSink,
  fileSource,
  openZipFile,
} from "@z/store-zip/node";
export * from "./index.js";
