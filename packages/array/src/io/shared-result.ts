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

/** Whether a container lies in a SharedArrayBuffer. */
export function isSharedContainer(data: unknown): data is TypedArray {
  return (
    typeof SharedArrayBuffer === "function" &&
    isTypedArray(data) &&
    data.buffer instanceof SharedArrayBuffer
  );
}
