/**
 * Virtual references: a read-only Zarr store over kerchunk reference JSON (versions 0 and 1),
 * whose keys are inline bytes or byte ranges of local files, http(s) URLs or any store.
 * @packageDocumentation
 */
export { InvalidReferenceError, ReferenceTargetError } from "./errors.js";
export { type ParseReferencesOptions, parseReferences, type Reference } from "./kerchunk.js";
export { ReferenceStore, type ReferenceStoreOptions } from "./reference-store.js";
export type { ReferenceTarget, TargetResolver } from "./targets.js";
