/**
 * Zarr arrays and groups: open and create them (v2 and v3), read and write selections, list
 * hierarchies. Stores come from the @z/store-memory, -fs, -http and -zip packages; a plain `Map`
 * works too.
 * @packageDocumentation
 */

export * from "./cache/chunk-cache.js";
export * from "./config/config.js";
export * from "./config/config-error.js";
export * from "./consolidated/consolidate-metadata.js";
export * from "./consolidated/consolidated-model.js";
export * from "./consolidated/open-consolidated.js";
export * from "./copy/copy-check.js";
export * from "./copy/copy-elements.js";
export * from "./copy/copy-node.js";
export * from "./copy/copy-options.js";
export type { ArrayOptions } from "./create/array-metadata-builder.js";
export type { ChunksOption, ChunksShorthand } from "./create/chunk-grid-option.js";
export * from "./create/chunking.js";
export type { CodecSpec } from "./create/codec-specs.js";
export * from "./create/container-types.js";
export * from "./create/data-type-check.js";
export { NUMPY_TYPE_CODES, NUMPY_TYPE_NAMES } from "./create/numpy-dtype-aliases.js";
export * from "./create/numpy-style-creation.js";
export type { ArraySource, LikeOptions } from "./create/options-like.js";
export * from "./errors.js";
export type { AnySelection } from "./io/any-selection.js";
export type { AccessOptions, Progress } from "./io/chunk-access.js";
export * from "./io/concurrency.js";
export type { ReadOptions, SelectionOptions } from "./io/selection-io.js";
export * from "./logging/store-logging.js";
export * from "./nodes/array.js";
export type { NumcodecsConfig } from "./nodes/codec-roles.js";
export {
  type EditOptions,
  Group,
  type GroupMember,
  type GroupState,
  type ListOptions,
  type MemberCreationOptions,
  type MemberLikeOptions,
  type MembersOptions,
  ZarrGroup,
} from "./nodes/group.js";
export * from "./nodes/info.js";
export * from "./nodes/info-rows.js";
export type { NodeMetadata } from "./nodes/node-documents.js";
export * from "./nodes/nodes.js";
export * from "./nodes/open-array.js";
export type { AccessMode } from "./nodes/open-mode.js";
export * from "./nodes/tree.js";
export * from "./nodes/tree-summary.js";
export * from "./nodes/unreadable-node.js";
export * from "./storage/storage-transformer-error.js";
export * from "./storage/storage-transformers.js";
export * from "./write/create-nodes.js";
export * from "./write/rollback-error.js";
export type { NdValue, Scalar, SetValue } from "./write/values.js";
export type { HierarchyOptions, NodeSpec } from "./write/write-nodes.js";
