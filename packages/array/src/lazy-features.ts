/**
 * The features of `@z/array` that load on first use, decided here once: an app that only reads
 * plain arrays downloads none of them (packages/zarr/test/bundlers/sizes.test.ts holds the
 * budget). Each loader is the feature's one entry module; code elsewhere in the package awaits
 * the loader rather than importing the feature's files, so the boundary stays where this table
 * puts it. Codecs and data types have their own tables (`builtins.ts` in @z/codecs,
 * `dtype/lazy-load.ts` in @z/metadata).
 */

/** Writing: values, chunk writes and their locks, resize, metadata updates, node documents. */
export const loadWritePath = () => import("./write/write-path.js");

/** Moving and deleting nodes (`ZarrGroup.move`, `ZarrGroup.delete`). */
export const loadNodeEdits = () => import("./write/node-edits.js");

/** The options of the NumPy-style shorthands (`zeros`, `onesLike`, ...) of groups. */
export const loadCreationShorthands = () => import("./create/shorthand-options.js");

/** Parsing v2 nodes (`.zarray`, `.zgroup`, `.zattrs`) and numcodecs codec lists. */
export const loadV2Parser = () => import("./nodes/node-parse-v2.js");

/** The model of consolidated metadata (`.zmetadata`, or `consolidated_metadata` in v3). */
export const loadConsolidatedModel = () => import("./consolidated/consolidated-model.js");

/** The orthogonal, coordinate, mask and block indexers. */
export const loadSelectionIndexers = () => import("./io/selection-indexers.js");

/** Reads whose workers copy chunk parts into a result in shared memory (a worker pool's). */
export const loadPlacement = () => import("./io/placement.js");

/** The elements of a chunk a read takes, for codecs that decode only those (blosc). */
export const loadElementHints = () => import("./io/element-hints.js");

/** Partial reads of chunks whose codec reads partially (sharding): index cache, merged ranges. */
export const loadPartialReads = () => import("./io/partial-reads.js");

/** The logging proxy of stores, when the `store` namespace logs. */
export const loadStoreLogging = () => import("./logging/logging-proxy.js");

/** Counting the stored chunks of an array (`nchunksInitialized`), which lists the store. */
export const loadStoredChunks = () => import("./nodes/stored-chunks.js");

/** Creating the node an opener's mode asks for ("a", "w", "w-"; see write/mode-creation.ts). */
export const loadNodeCreation = () => import("./write/mode-creation.js");
