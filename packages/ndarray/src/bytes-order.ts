import { LITTLE_ENDIAN_HOST } from "./memory-layout.js";

/** Byte order of multi-byte elements: least significant byte first (`"little"`) or last. */
export type Endian = "little" | "big";

/** Reverses the byte order of every `itemSize`-byte element of `bytes`, in place. */
export function swapBytesInPlace(bytes: Uint8Array, itemSize: number): void {
  if (itemSize <= 1) return;
  const n = bytes.length - (bytes.length % itemSize);
  const half = itemSize >> 1;
  for (let base = 0; base < n; base += itemSize) {
    for (let k = 0; k < half; k++) {
      const a = base + k;
      const b = base + itemSize - 1 - k;
      const t = bytes[a];
      bytes[a] = bytes[b];
      bytes[b] = t;
    }
  }
}

/** Whether bytes in byte order `endian` must be swapped to be read natively here. */
export function needsSwap(endian: Endian, itemSize: number): boolean {
  return itemSize > 1 && (endian === "little") !== LITTLE_ENDIAN_HOST;
}

/** The bytes of a TypedArray (a view, no copy). */
export function bytesOf(view: ArrayBufferView): Uint8Array {
  return new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
}
