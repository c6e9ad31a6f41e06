/**
 * OME-Zarr (OME-NGFF 0.4 and 0.5; 0.1 to 0.3 read too) multiscale images over `@z/array`:
 * read and check the metadata, open an image's levels, pick the level for a view, read tiles
 * chunk by chunk with aborts, and write pyramids with bounded memory.
 * @packageDocumentation
 */

export * from "./axis-roles.js";
export * from "./errors.js";
export * from "./label-names.js";
export type * from "./metadata/model.js";
export * from "./metadata/parse-ome.js";
export type * from "./multiscale-image.js";
export * from "./open-multiscale.js";
export * from "./pick-level.js";
export * from "./read-tile.js";
export * from "./write/downsample.js";
export type { OmeroInput } from "./write/omero-defaults.js";
export { completeOmero } from "./write/omero-defaults.js";
export type * from "./write/pyramid-options.js";
export type { PyramidSource, PyramidValues } from "./write/region-source.js";
export * from "./write/write-pyramid.js";
