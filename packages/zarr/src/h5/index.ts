/**
 * An h5py-style layer over Zarr: `File`, `Group`, `Dataset` and attribute managers with h5py's
 * names and meanings, async where Zarr I/O is. See docs/h5py.md for h5py and this side by side.
 *
 * ```ts
 * import { File } from "@z/zarr/h5";
 * const f = await File("data.zarr", "a");
 * const d = await f.requireDataset("x", [100], "f8", { chunks: [10], compression: "gzip", maxshape: [null] });
 * await d.resize(200);
 * ```
 * @packageDocumentation
 */
import "../extensions.js";

export { slice } from "@z/indexing";
export { AttributeManager, type AttributeOwner } from "./attrs.js";
export type { BloscOptions, Compression } from "./compression.js";
export { Dataset } from "./dataset.js";
export {
  ClosedFileError,
  FileExistsError,
  FileModeError,
  H5Error,
  H5TypeError,
  H5ValueError,
  NameExistsError,
} from "./errors.js";
export { File, type FileMode, type FileOptions, H5File } from "./file.js";
export { type CopyOptions, type DatasetOptions, Group, type H5Node } from "./group.js";
