/**
 * The write path of arrays: values checked and resolved against a selection, chunk writes that
 * do not lose concurrent ones, resize, and the update of the consolidated metadata that lists
 * an array whose metadata changes. `ZarrArray` and `ChunkIo` load this module with the
 * first write, append or resize, so an app that only reads does not download it: see the
 * first-load budget in packages/zarr/test/bundlers/sizes.test.ts.
 */
export { replaceKey, updateKey } from "./read-modify-write.js";
export { checkNewShape, shrinkChunks } from "./resize.js";
export { writeSelection } from "./selection-write.js";
export { updateHolderEntry } from "./update-consolidated.js";
export { resolveValue } from "./values.js";
