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

/** C-order (row-major) element strides of a shape. */
export function cOrderStrides(shape: readonly number[]): number[] {
  const stride = new Array<number>(shape.length);
  let step = 1;
  for (let i = shape.length - 1; i >= 0; i--) {
    stride[i] = step;
    step *= shape[i];
  }
  return stride;
}

/** F-order (column-major) element strides of a shape. */
export function fOrderStrides(shape: readonly number[]): number[] {
  const stride = new Array<number>(shape.length);
  let step = 1;
  for (let i = 0; i < shape.length; i++) {
    stride[i] = step;
    step *= shape[i];
  }
  return stride;
}

/** The number of elements of a shape (1 for a 0-d shape). */
export function product(shape: readonly number[]): number {
  let n = 1;
  for (const extent of shape) n *= extent;
  return n;
}

/** Whether this machine stores multi-byte numbers little-endian. */
export const LITTLE_ENDIAN_HOST = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
