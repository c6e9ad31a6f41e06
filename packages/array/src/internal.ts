/**
 * Internals of `@z/array` shared with the other `@z` packages: chunk I/O and sharded access,
 * metadata documents, info and tree formatting, creation steps, locks and concurrency. Not part of
 * the public API: names here change without a major version. Applications import `@z/array`.
 * @packageDocumentation
 */
export { indexerFor } from "./any-selection.js";
export { buildArrayMetadata } from "./array-metadata-builder.js";
export type { ChunkAccess } from "./chunk-access.js";
export { ChunkIo, type ChunkIoOptions, isFill, locate, writableChunk } from "./chunk-io.js";
export { TARGET_CHUNK_BYTES } from "./chunking-target.js";
export { DEFAULT_COMPRESSOR, defaultSerializer, toNamedConfig } from "./codec-specs.js";
export { DEFAULT_CONCURRENCY, forEachConcurrent } from "./concurrency.js";
export { consolidatedDocuments } from "./consolidated-documents.js";
export { checkCopyMetadata, checkedCopyMetadata, readBackArrayMetadata } from "./copy-check.js";
export {
  type CopiedElements,
  type CopyElementsOptions,
  copyArrayElements,
  sameStoredLayout,
} from "./copy-elements.js";
export { WriteJournal } from "./copy-journal.js";
export {
  type CopyLayout,
  copyLayout,
  type LayoutChanges,
  type ShardLevel,
  type StoredLayout,
  storedLayoutOf,
  toV3Codec,
} from "./copy-layout.js";
export { isDataTypeNamed } from "./data-type-named.js";
export { resolveDtype } from "./dtype-option.js";
export { createExclusive, isNodeDocument } from "./exclusive-create.js";
export { nodeFromMetadata } from "./group.js";
export { formatChunkGrid, formatCodec, formatRows, formatShape, infoRows } from "./info-rows.js";
export { withKeyLock, writeEpoch } from "./key-lock.js";
export { LruCache } from "./lru.js";
export {
  type ReadMetadataOptions,
  readJson,
  readNodeMetadata,
  writeDocuments,
  writeManyDocuments,
} from "./metadata-io.js";
export {
  arrayMetadataDocuments,
  groupMetadataDocuments,
  nodeMetadataDocuments,
  sortKeysDeep,
  zarrayDocument,
} from "./node-documents.js";
export { parseV3Node } from "./node-parse.js";
export { parseV2Node } from "./node-parse-v2.js";
export { dataTypeOfContainer, optionsLike } from "./options-like.js";
export {
  type KeyUpdate,
  replaceKey,
  type UpdateKeyOptions,
  updateKey,
} from "./read-modify-write.js";
export { checkNewShape, shrinkChunks } from "./resize.js";
export { MAX_SELECTION_ELEMENTS, readSelection } from "./selection-io.js";
export { writeSelection } from "./selection-write.js";
export { ShardedAccess, type ShardedAccessOptions } from "./sharded-access.js";
export { type ShardingConfig, shardingOf } from "./sharding-config.js";
export { storeKind } from "./store-kind.js";
export { enterStore } from "./store-logging-scope.js";
export { arraySummary, chunksSummary, groupTitle } from "./tree-summary.js";
export {
  type ConsolidatedHolder,
  consolidatedUpdate,
  type HierarchyChange,
  readConsolidatedHolder,
  updateConsolidated,
  withHierarchyChange,
} from "./update-consolidated.js";
export { resolveValue, sameShape } from "./values.js";
export {
  commitNodes,
  type NodeInput,
  type PreparedNodes,
  prepareNodes,
  removeReplaced,
  type WrittenNodes,
  writeNodes,
} from "./write-nodes.js";
