/**
 * N-d arrays in memory: the element containers (TypedArrays, the bool view, half precision
 * where the runtime lacks `Float16Array`), the `{data, shape, stride}` shape every `@z` package
 * moves elements in, strided copies between such arrays, and byte order. No Zarr concepts: the
 * data types of `@z/metadata` choose these containers, codecs and indexing copy through them.
 * @packageDocumentation
 */
export { BoolArray } from "./bool-array.js";
export { bytesOf, type Endian, needsSwap, swapBytesInPlace } from "./bytes-order.js";
export { type Chunk, type Container, isTypedArray, type TypedArray } from "./containers.js";
export { halfToNumber, NativeFloat16Array, numberToHalf } from "./float16.js";
export {
  cOrderStrides,
  fOrderStrides,
  LITTLE_ENDIAN_HOST,
  product,
} from "./memory-layout.js";
export { copyStrided, isCContiguous, type StridedView, toCOrder } from "./strided.js";
