import { DecodeError } from "@z/codecs";
import { LITTLE_ENDIAN_HOST } from "@z/ndarray";

/** The data buffer of the offsets layout starts at a multiple of this many bytes. */
export const OFFSETS_LAYOUT_ALIGNMENT = 64;

/** The offset width of the offsets layout: 32-bit (Arrow Utf8/Binary) or 64-bit (Large*). */
export type OffsetWidth = "int32" | "int64";

/** A parsed offsets-layout chunk: offsets checked, data located. */
export interface OffsetsLayout {
  /** `count + 1` offsets into `data`, a view of the chunk when its alignment allows. */
  offsets: Int32Array | BigInt64Array;
  /** The offsets as numbers (a view of the same memory for int32). */
  numericOffsets: Uint32Array | Float64Array;
  /** The concatenated element bytes, a view of the chunk. */
  data: Uint8Array;
  /** The number of elements. */
  count: number;
}

/** Where the data buffer starts for `count` elements. */
export function dataStartOf(count: number, width: OffsetWidth): number {
  const header = (count + 1) * (width === "int32" ? 4 : 8);
  return Math.ceil(header / OFFSETS_LAYOUT_ALIGNMENT) * OFFSETS_LAYOUT_ALIGNMENT;
}

function offsetView(
  bytes: Uint8Array,
  count: number,
  width: OffsetWidth,
): Int32Array | BigInt64Array {
  const size = width === "int32" ? 4 : 8;
  const aligned = LITTLE_ENDIAN_HOST && bytes.byteOffset % size === 0;
  const source = aligned ? bytes : bytes.slice(0, (count + 1) * size);
  if (!LITTLE_ENDIAN_HOST) {
    const view = new DataView(source.buffer, source.byteOffset, (count + 1) * size);
    if (width === "int32")
      return Int32Array.from({ length: count + 1 }, (_, i) => view.getInt32(i * 4, true));
    return BigInt64Array.from({ length: count + 1 }, (_, i) => view.getBigInt64(i * 8, true));
  }
  return width === "int32"
    ? new Int32Array(source.buffer, source.byteOffset, count + 1)
    : new BigInt64Array(source.buffer, source.byteOffset, count + 1);
}

/**
 * Reads an offsets-layout chunk of `count` elements: `count + 1` little-endian offsets, zero
 * padding to the next multiple of 64 bytes, then the data. The offsets must start at 0, never
 * decrease, and end exactly at the data's size; the buffer is checked to hold the offsets
 * before any of them is read.
 * @throws DecodeError
 */
export function readOffsetsLayout(
  bytes: Uint8Array,
  count: number,
  width: OffsetWidth,
  codec: string,
): OffsetsLayout {
  const dataStart = dataStartOf(count, width);
  if (bytes.length < dataStart) {
    throw new DecodeError(
      `${codec}: the chunk has ${bytes.length} bytes; ${count} elements need ${count + 1} ${width} offsets padded to ${dataStart} bytes`,
    );
  }
  const dataSize = bytes.length - dataStart;
  const offsets = offsetView(bytes, count, width);
  // Offsets are read as unsigned 32-bit numbers where they fit (a negative int32 then reads as
  // a huge offset and is refused below): one element kind for every item table keeps the
  // decoding loops monomorphic.
  let numericOffsets: Uint32Array | Float64Array;
  if (offsets instanceof Int32Array) {
    numericOffsets = new Uint32Array(offsets.buffer, offsets.byteOffset, count + 1);
  } else {
    numericOffsets =
      dataSize < 0xffffffff ? new Uint32Array(count + 1) : new Float64Array(count + 1);
    const limit = BigInt(dataSize);
    for (let i = 0; i <= count; i++) {
      const o = offsets[i];
      numericOffsets[i] = o < 0n || o > limit ? 0xffffffff : Number(o);
    }
  }
  if (numericOffsets[0] !== 0)
    throw new DecodeError(`${codec}: the first offset is ${numericOffsets[0]}, not 0`);
  let previous = 0;
  for (let i = 1; i <= count; i++) {
    const o = numericOffsets[i];
    if (o < previous || o > dataSize) {
      throw new DecodeError(
        `${codec}: offset ${i} (${o >= 0x7fffffff ? "out of range" : o}) ${o < previous ? `is below offset ${i - 1} (${previous})` : `is past the data's end (${dataSize} bytes)`}`,
      );
    }
    previous = o;
  }
  if (previous !== dataSize) {
    throw new DecodeError(
      `${codec}: the last offset is ${previous} but the data has ${dataSize} bytes (a truncated or padded chunk, or a wrong element count)`,
    );
  }
  return { offsets, numericOffsets, data: bytes.subarray(dataStart), count };
}

/**
 * Writes the offsets layout for items of the given sizes; `write(i, out, at)` writes item
 * `i`'s bytes at `out[at]`.
 * @returns undefined when the data is too large for int32 offsets
 */
export function encodeOffsetsLayout(
  sizes: ArrayLike<number>,
  count: number,
  width: OffsetWidth,
  write: (index: number, out: Uint8Array, at: number) => void,
): Uint8Array | undefined {
  let total = 0;
  for (let i = 0; i < count; i++) total += sizes[i];
  if (width === "int32" && total > 0x7fffffff) return undefined;
  const dataStart = dataStartOf(count, width);
  const out = new Uint8Array(dataStart + total);
  const view = new DataView(out.buffer);
  let at = 0;
  for (let i = 0; i <= count; i++) {
    if (width === "int32") view.setInt32(i * 4, at, true);
    else {
      view.setUint32(i * 8, at % 2 ** 32, true);
      view.setUint32(i * 8 + 4, Math.floor(at / 2 ** 32), true);
    }
    if (i < count) {
      if (sizes[i] > 0) write(i, out, dataStart + at);
      at += sizes[i];
    }
  }
  return out;
}
