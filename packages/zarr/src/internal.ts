/**
 * Internals of the `@z` packages that the `zarr` command line tool (`@z/cli`) uses, which may
 * import `@z/zarr` only. Not part of the public API: names here change without a major version.
 * @packageDocumentation
 */
export {
  arrayMetadataDocuments,
  arraySummary,
  buildArrayMetadata,
  checkCopyMetadata,
  copyArrayElements,
  DEFAULT_CONCURRENCY,
  forEachConcurrent,
  formatRows,
  infoRows,
  parseV2Node,
  parseV3Node,
  readNodeMetadata,
  sameStoredLayout,
} from "@z/array/internal";
export { encodeJson, namedConfigToJson, uniformChunkShape } from "@z/metadata/internal";
