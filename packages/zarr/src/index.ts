/**
 * The `@z` Zarr stack in one package: arrays and groups, every store, codec and data type that
 * ships with it, registered and ready. In Node.js the package also exports the filesystem
 * stores (`FsStore`, zip files on disk); browsers get everything else (the `node` export
 * condition chooses).
 *
 * ```ts
 * import { createArray, FsStore, slice } from "@z/zarr";
 * const store = new FsStore("data.zarr");
 * const arr = await createArray(store, { shape: [1000, 1000], chunks: [100, 100], dtype: "float32" });
 * await arr.set([slice(0, 100), null], 1);
 * ```
 * @packageDocumentation
 */

export {
  type AccessMode,
  type AccessOptions,
  type AnySelection,
  type ArrayCopyChanges,
  type ArrayData,
  type ArrayInfo,
  type ArrayOptions,
  type ArraySource,
  type ArrayState,
  arrayInfo,
  arraySummary,
  ChunkCache,
  type ChunkCacheOptions,
  type ChunkCacheStats,
  type ChunksOption,
  type ChunksShorthand,
  type CodecSpec,
  ConfigError,
  type ConfigKey,
  type ConfigRestore,
  type ConfigValues,
  ConsolidatedMetadata,
  type ConsolidateOptions,
  type ContainerByName,
  type ContainerOf,
  ContainsArrayError,
  ContainsGroupError,
  type CopiedElements,
  type CopiedNodes,
  type CopyElementsOptions,
  type CopyNodeOptions,
  type CreatedNodes,
  type CreateNodeOptions,
  type CreationOptions,
  checkCopyMetadata,
  checkedCopyMetadata,
  chunksSummary,
  config,
  copyArrayElements,
  copyArrayOptions,
  copyNode,
  DataTypeMismatchError,
  DEFAULT_CONCURRENCY,
  type EditOptions,
  type FromArrayOptions,
  forEachConcurrent,
  formatChunkGrid,
  formatCodec,
  formatRows,
  formatShape,
  Group,
  type GroupMember,
  type GroupOptions,
  type GroupState,
  groupTitle,
  guessChunks,
  type HierarchyOptions,
  IncompleteRollbackError,
  infoRows,
  type LikeOptions,
  type ListOptions,
  type MemberCreationOptions,
  type MemberLikeOptions,
  type MembersOptions,
  MixedFormatsError,
  type NdValue,
  NodeCopyPlan,
  NodeError,
  type NodeMetadata,
  type NodeSpec,
  NotEmptyError,
  NUMPY_TYPE_CODES,
  NUMPY_TYPE_NAMES,
  type NumcodecsConfig,
  type OpenArrayOptions,
  type OpenGroupOptions,
  type OpenOptions,
  type Progress,
  planNodeCopy,
  type ReadOptions,
  readBackArrayMetadata,
  registeredStorageTransformers,
  registerStorageTransformer,
  renderTree,
  type Scalar,
  type SelectionOptions,
  type SetValue,
  ShapeMismatchError,
  type StorageTransformerContext,
  type StorageTransformerFactory,
  sameStoredLayout,
  setDefaultConcurrency,
  type TreeOptions,
  treeLines,
  UnknownStorageTransformerError,
  UnreadableNode,
  type V2ConsolidatedEntry,
  ValueShapeError,
  withStoreLogging,
  ZarrArray,
  ZarrGroup,
} from "@z/array";
export * from "@z/codecs";
export * from "@z/dtypes-arrow";
export * from "@z/dtypes-vlen";
export * from "@z/indexing";
export * from "@z/log";
export * from "@z/metadata";
export * from "@z/ndarray";
export * from "@z/store-browser";
export * from "@z/store-core";
export * from "@z/store-http";
export * from "@z/store-memory";
export * from "@z/store-reference";
export * from "@z/store-s3";
export * from "@z/store-zip";
export * from "./icechunk.js";
export * from "./locations.js";
// The open and create functions come from registered.ts, which brings the umbrella's
// registrations (extensions.ts) with them: bundlers drop a bare side-effect import from a
// barrel of re-exports, so the registrations hang on these bindings.
export * from "./registered.js";
