import { type Chunk, isTypedArray, type TypedArray } from "@z/ndarray";

/**
 * What an entry counts for besides its elements, so that entries of missing chunks (no
 * elements) still count and their number stays bounded.
 */
export const ENTRY_OVERHEAD = 64;

/**
 * The bytes a decoded chunk counts for in a cache: its elements' bytes plus
 * {@link ENTRY_OVERHEAD} (for a missing chunk, the overhead alone). A plain array of strings
 * counts 8 bytes per element and 2 per character.
 */
export function entryBytes(chunk: Chunk | undefined): number {
  if (chunk === undefined) return ENTRY_OVERHEAD;
  const { data } = chunk;
  if (isTypedArray(data)) return data.byteLength + ENTRY_OVERHEAD;
  let bytes = ENTRY_OVERHEAD;
  for (const value of data) bytes += typeof value === "string" ? 8 + 2 * value.length : 8;
  return bytes;
}

/**
 * The chunk as a cache entry: its own memory (a copy, unless `owned` says nothing else holds
 * it), in C order as decoded. `false` when its elements are objects (bytes, structured and
 * Arrow values): a read's result holds the very element objects of the chunk, so a caller could
 * change an entry through them.
 */
export function entryOf(chunk: Chunk, owned: boolean): Chunk | false {
  const { data } = chunk;
  if (isTypedArray(data)) {
    return owned
      ? chunk
      : { data: copyTyped(data), shape: [...chunk.shape], stride: [...chunk.stride] };
  }
  if (!data.every((value) => value === null || typeof value !== "object")) return false;
  return { data: data.slice(), shape: [...chunk.shape], stride: [...chunk.stride] };
}

/**
 * A copy of a TypedArray of the same class (Complex64Array, BoolArray, Float16Array, ...), in
 * memory of its own: the bytes are copied, so classes whose elements span several slots
 * (complex) copy as they are.
 */
function copyTyped(data: TypedArray): TypedArray {
  const buffer = new ArrayBuffer(data.byteLength);
  new Uint8Array(buffer).set(new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
  const Container = data.constructor as new (
    buffer: ArrayBufferLike,
    byteOffset: number,
    length: number,
  ) => TypedArray;
  return new Container(buffer, 0, data.length);
}
