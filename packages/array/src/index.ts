/**
 * Zarr arrays and groups: open and create them (v2 and v3), read and write selections, list
 * hierarchies. Stores come from the @z/store-memory, -fs, -http and -zip packages; a plain `Map`
 * works too.
 * @packageDocumentation
 */

export type { AnySelection } from "./any-selection.js";
export { type ArrayState, ZarrArray } from "./array.js";
export type { ArrayOptions } from "./array-metadata-builder.js";
export type { AccessOptions, Progress } from "./chunk-access.js";
export type { ChunksOption } from "./chunk-grid-option.js";
export { guessChunks } from "./chunking.js";
export type { CodecSpec } from "./codec-specs.js";
export { DEFAULT_CONCURRENCY, forEachConcurrent } from "./concurrency.js";
export { type ConsolidateOptions, consolidateMetadata } from "./consolidate-metadata.js";
export { ConsolidatedMetadata, type V2ConsolidatedEntry } from "./consolidated-model.js";
export type { ContainerByName, ContainerOf } from "./container-types.js";
export { checkCopyMetadata, checkedCopyMetadata, readBackArrayMetadata } from "./copy-check.js";
export {
  type CopiedElements,
  type CopyElementsOptions,
  copyArrayElements,
  sameStoredLayout,
} from "./copy-elements.js";
export {
  type CopiedNodes,
  type CopyNodeOptions,
  copyNode,
  NodeCopyPlan,
  planNodeCopy,
} from "./copy-node.js";
export { type ArrayCopyChanges, copyArrayOptions } from "./copy-options.js";
export {
  type CreatedNodes,
  type CreateNodeOptions,
  createArray,
  createGroup,
  createHierarchy,
  createNodes,
  type GroupOptions,
} from "./create-nodes.js";
export { DataTypeMismatchError } from "./data-type-check.js";
export {
  ContainsArrayError,
  ContainsGroupError,
  MixedFormatsError,
  NodeError,
  ValueShapeError,
} from "./errors.js";
export {
  Group,
  type GroupMember,
  type GroupState,
  type ListOptions,
  ZarrGroup,
} from "./group.js";
export { type ArrayInfo, arrayInfo } from "./info.js";
export { formatChunkGrid, formatCodec, formatRows, formatShape, infoRows } from "./info-rows.js";
export type { NodeMetadata } from "./node-documents.js";
export { type OpenArrayOptions, type OpenOptions, open, openArray, openGroup } from "./nodes.js";
export {
  type ArrayData,
  type CreationOptions,
  empty,
  emptyLike,
  type FromArrayOptions,
  fromArray,
  full,
  fullLike,
  ones,
  onesLike,
  zeros,
  zerosLike,
} from "./numpy-style-creation.js";
export type { ArraySource, LikeOptions } from "./options-like.js";
export { IncompleteRollbackError } from "./rollback-error.js";
export type { ReadOptions, SelectionOptions } from "./selection-io.js";
export { withStoreLogging } from "./store-logging.js";
export { renderTree, type TreeOptions, treeLines } from "./tree.js";
export { arraySummary, chunksSummary, groupTitle } from "./tree-summary.js";
export { UnreadableNode } from "./unreadable-node.js";
export type { NdValue, Scalar, SetValue } from "./values.js";
export type { HierarchyOptions, NodeSpec } from "./write-nodes.js";
