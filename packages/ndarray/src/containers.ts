/** Every TypedArray class an element container can be. */
export type TypedArray =
  | Int8Array
  | Uint8Array
  | Uint8ClampedArray
  | Int16Array
  | Uint16Array
  | Int32Array
  | Uint32Array
  | Float32Array
  | Float64Array
  | BigInt64Array
  | BigUint64Array;

/**
 * The in-memory form of a block of elements: a TypedArray for fixed-size numeric types (with
 * `lanes` slots per element, e.g. two for complex), or a plain array for types whose elements
 * are objects or strings.
 */
export type Container = TypedArray | unknown[];

/**
 * An n-d array in memory: a flat container, the shape, and the element strides (C order by
 * default). Codecs, indexing and user results all speak this one shape.
 */
export interface Chunk<C extends Container = Container> {
  /** The elements. */
  data: C;
  /** The extent of each dimension. */
  shape: number[];
  /** How many elements apart consecutive entries of each dimension are. */
  stride: number[];
}

/** Whether a container is a TypedArray (as opposed to a plain array of objects). */
export function isTypedArray(data: unknown): data is TypedArray {
  return ArrayBuffer.isView(data) && !(data instanceof DataView);
}
