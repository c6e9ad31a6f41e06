/**
 * zarrita's API over the `@z` Zarr stack: an app written for zarrita (`import * as zarr from
 * "zarrita"`) switches by changing that one import to `@z/zarrita`. `open`, `create`, `get`,
 * `set`, `root`, `slice`, `select`, `FetchStore`, the store and array extensions and zarrita's
 * tagged errors keep zarrita's shapes; reading, decoding, indexing and writing are done by
 * `@z/array` and the packages below it, so every codec, data type and store of the stack is
 * there.
 *
 * ```ts
 * import * as zarr from "`@z/zarrita`";
 * const arr = await zarr.open(new zarr.FetchStore("https://example.org/data.zarr"), { kind: "array" });
 * const { data, shape } = await zarr.get(arr, [zarr.slice(0, 10), null]);
 * ```
 * @packageDocumentation
 */

export type { ByteCachingOptions } from "./caching.js";
export { withByteCaching } from "./caching.js";
export type {
  ConsolidatedEntry,
  ConsolidatedFormat,
  ConsolidatedMetadataOptions,
  Listable,
} from "./consolidation.js";
export { withConsolidatedMetadata, withMaybeConsolidatedMetadata } from "./consolidation.js";
export type { Chunk, Float16ArrayOfRuntime, Scalar, TypedArray } from "./containers.js";
export type { CodecMetadata, CreateArrayOptions, CreateGroupOptions } from "./create.js";
export { create } from "./create.js";
export type {
  BigintDataType,
  DataType,
  DataTypeQuery,
  NumberDataType,
  StringDataType,
} from "./data-types.js";
export type { AnyZarritaError, ZarritaErrorMap, ZarritaErrorTag } from "./errors.js";
export {
  CodecPipelineError,
  InvalidMetadataError,
  InvalidSelectionError,
  isZarritaError,
  NotFoundError,
  UnknownCodecError,
  UnsupportedError,
} from "./errors.js";
export type { ArrayExtension, StoreOverrides } from "./extensions.js";
export {
  defineArrayExtension,
  defineStoreExtension,
  extendArray,
  extendStore,
} from "./extensions.js";
export type { FetchStoreOptions } from "./fetch-store.js";
export { FetchStore } from "./fetch-store.js";
export type {
  ArrayMetadata,
  Attributes,
  GetChunkOptions,
  GroupMetadata,
  NarrowDataType,
} from "./hierarchy.js";
export { Array, Group, Location, root } from "./hierarchy.js";
export type { GetOptions, Selection, Slice, SliceItem } from "./indexing.js";
export { get, select, set, slice } from "./indexing.js";
export type { Opened, OpenFormat, OpenOptions, Where } from "./open.js";
export { open } from "./open.js";
export type { FlushReport, RangeCoalescingOptions } from "./range-coalescing.js";
export { withRangeCoalescing } from "./range-coalescing.js";
export type { AbsolutePath, Mutable, RangeQuery, Readable } from "./store.js";
export { BoolArray, ByteStringArray, UnicodeStringArray } from "./typedarray.js";
