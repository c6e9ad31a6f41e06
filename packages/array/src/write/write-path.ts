/**
 * The write path of arrays: values checked and resolved against a selection, chunk writes that
 * do not lose concurrent ones, resize, and the documents changed array metadata is written as
 * (with the update of the consolidated metadata that lists the array), and the
 * read-modify-write of metadata documents (attributes, shapes, consolidated metadata).
 * `ZarrArray`, `ZarrGroup`, `ArrayChunks`, `ChunkStore` and node creation load this module with
 * the first write, append, resize, attribute update or consolidated metadata update, so an app
 * that only reads does not download it: see the first-load budget in
 * packages/zarr/test/bundlers/sizes.test.ts.
 */
export { writeGroups } from "./chunk-writes.js";
export {
  updateHolder,
  updateHolderEntry,
  updateNodeMetadata,
  writeScannedConsolidated,
} from "./metadata-update.js";
export { replaceKey, updateKey } from "./read-modify-write.js";
export { checkNewShape, shrinkChunks } from "./resize.js";
export { writeSelection } from "./selection-write.js";
export { resolveValue } from "./values.js";
