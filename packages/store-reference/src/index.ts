/**
 * Virtual references: a read-only Zarr store over kerchunk reference JSON (versions 0 and 1),
 * whose keys are inline bytes or byte ranges of local files, http(s) URLs or any store.
 * @packageDocumentation
 */
export * from "./errors.js";
export * from "./kerchunk.js";
export * from "./reference-store.js";
export type { ReferenceTarget, TargetResolver } from "./targets.js";
