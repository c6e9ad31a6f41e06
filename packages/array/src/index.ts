/**
 * Zarr arrays and groups: open and create them (v2 and v3), read and write selections, list
 * hierarchies. Stores come from the @z/store-memory, -fs, -http and -zip packages; a plain `Map`
 * works too.
 * @packageDocumentation
 */

export type { AnySelection } from "./any-selection.js";
export * from "./array.js";
export type { ArrayOptions } from "./array-metadata-builder.js";
export type { AccessOptions, Progress } from "./chunk-access.js";
export type { ChunksOption } from "./chunk-grid-option.js";
export * from "./chunking.js";
export type { CodecSpec } from "./codec-specs.js";
export * from "./concurrency.js";
export * from "./consolidate-metadata.js";
export * from "./consolidated-model.js";
export * from "./container-types.js";
export * from "./copy-check.js";
export * from "./copy-elements.js";
export * from "./copy-node.js";
export * from "./copy-options.js";
export * from "./create-nodes.js";
export * from "./data-type-check.js";
export * from "./errors.js";
export {
  Group,
  type GroupMember,
  type GroupState,
  type ListOptions,
  ZarrGroup,
} from "./group.js";
export * from "./info.js";
export * from "./info-rows.js";
export type { NodeMetadata } from "./node-documents.js";
export * from "./nodes.js";
export * from "./numpy-style-creation.js";
export type { ArraySource, LikeOptions } from "./options-like.js";
export * from "./rollback-error.js";
export type { ReadOptions, SelectionOptions } from "./selection-io.js";
export * from "./store-logging.js";
export * from "./tree.js";
export * from "./tree-summary.js";
export * from "./unreadable-node.js";
export type { NdValue, Scalar, SetValue } from "./values.js";
export type { HierarchyOptions, NodeSpec } from "./write-nodes.js";
