import type { DataType } from "@z/metadata";
import { isTypedArray, type TypedArray } from "@z/ndarray";

/**
 * Whether this thread may put a read's result in a SharedArrayBuffer: always in Node, and in
 * browsers only on cross-origin isolated pages (elsewhere the constructor is missing, or
 * workers could not be handed the memory).
 */
export function sharedMemoryAvailable(): boolean {
  if (typeof SharedArrayBuffer !== "function") return false;
  const isolated = (globalThis as { crossOriginIsolated?: boolean }).crossOriginIsolated;
  return isolated !== false;
}

/**
 * A new container of `n` elements of `dataType` over a SharedArrayBuffer, of the class its
 * reads create (Complex64Array, BoolArray, ...); undefined for data types whose container is
 * no TypedArray. Zero-filled, as a new container is, and untouched: its pages are first
 * touched by whichever thread writes them.
 */
export function createShared(dataType: DataType, n: number): TypedArray | undefined {
  const sample = dataType.create(0);
  if (!isTypedArray(sample)) return undefined;
  const length = n * dataType.create(1).length;
  const Container = sample.constructor as new (
    buffer: ArrayBufferLike,
    byteOffset: number,
    length: number,
  ) => TypedArray;
  const buffer = new SharedArrayBuffer(length * sample.BYTES_PER_ELEMENT);
  return new Container(buffer, 0, length);
}

/** Whether a container lies in a SharedArrayBuffer. */
export function isSharedContainer(data: unknown): data is TypedArray {
  return (
    typeof SharedArrayBuffer === "function" &&
    isTypedArray(data) &&
    data.buffer instanceof SharedArrayBuffer
  );
}
