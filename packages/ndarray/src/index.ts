/**
 * N-d arrays in memory: the element containers (TypedArrays, the bool view, half precision
 * where the runtime lacks `Float16Array`), the `{data, shape, stride}` shape every `@z` package
 * moves elements in, strided copies between such arrays, and byte order. No Zarr concepts: the
 * data types of `@z/metadata` choose these containers, codecs and indexing copy through them.
 * @packageDocumentation
 */
export * from "./bool-array.js";
export * from "./bytes-order.js";
export * from "./chunk-region.js";
export * from "./containers.js";
export * from "./element-ranges.js";
export * from "./float16.js";
export * from "./memory-layout.js";
export * from "./strided.js";
