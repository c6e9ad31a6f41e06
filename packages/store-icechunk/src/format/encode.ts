import { zstdCompress } from "@z/compression/zstd";
import { Builder } from "flatbuffers";
import { encode as encodeFlexbuffer } from "flatbuffers/mjs/flexbuffers.js";
import { FileType, type FileTypeName, HEADER_LENGTH, MAGIC } from "./header.js";
import { decodeObjectId } from "./object-id.js";

/** The implementation name this package writes into file headers. */
export const WRITER_NAME = "z-icechunk";

/** A fresh flatbuffers builder. */
export function newBuilder(): Builder {
  return new Builder(1024);
}

/** Adds a fixed-size byte struct (an `ObjectId12`/`ObjectId8`) as field `slot` of the open table. */
export function addIdStruct(b: Builder, slot: number, bytes: Uint8Array): void {
  b.prep(1, bytes.length);
  for (let i = bytes.length - 1; i >= 0; i--) b.writeInt8(bytes[i]);
  b.addFieldStruct(slot, b.offset(), 0);
}

/** The bytes of a base 32 object id of `size` bytes (ids this package made or read). */
export function idBytes(id: string, size: 8 | 12): Uint8Array {
  const bytes = decodeObjectId(id, size);
  if (bytes === undefined) throw new RangeError(`${JSON.stringify(id)} is not a ${size}-byte id`);
  return bytes;
}

/** A vector of table offsets. */
export function offsetVector(b: Builder, offsets: number[]): number {
  b.startVector(4, offsets.length, 4);
  for (let i = offsets.length - 1; i >= 0; i--) b.addOffset(offsets[i]);
  return b.endVector();
}

/** A vector of id structs. */
export function idVector(b: Builder, ids: Uint8Array[], size: number): number {
  b.startVector(size, ids.length, 1);
  for (let i = ids.length - 1; i >= 0; i--)
    for (let j = size - 1; j >= 0; j--) b.writeInt8(ids[i][j]);
  return b.endVector();
}

/** A vector of uint32. */
export function u32Vector(b: Builder, values: readonly number[]): number {
  b.startVector(4, values.length, 4);
  for (let i = values.length - 1; i >= 0; i--) b.addInt32(values[i] | 0);
  return b.endVector();
}

/** A `[MetadataItem]` vector; values as spec version 2 stores them (FlexBuffers). */
export function metadataVector(
  b: Builder,
  items: ReadonlyArray<readonly [string, Uint8Array]>,
): number {
  const offsets = items.map(([name, value]) => {
    const n = b.createString(name);
    const v = b.createByteVector(value);
    b.startObject(2);
    b.addFieldOffset(0, n, 0);
    b.addFieldOffset(1, v, 0);
    return b.endObject();
  });
  return offsetVector(b, offsets);
}

/** JSON-like metadata as FlexBuffers-encoded items, sorted by name. */
export function metadataItems(metadata: Record<string, unknown>): Array<[string, Uint8Array]> {
  return Object.keys(metadata)
    .sort()
    .map((k) => [k, encodeFlexbuffer(metadata[k]) as Uint8Array]);
}

/** Microseconds since the epoch of a date. */
export function microsOf(date: Date): bigint {
  return BigInt(date.getTime()) * 1000n;
}

/** A random id of `size` bytes. */
export function randomId(size: 8 | 12): Uint8Array {
  return crypto.getRandomValues(new Uint8Array(size));
}

/** Finishes the builder and frames the payload as a spec version 2 metadata file (zstd). */
export async function finishFile(
  b: Builder,
  root: number,
  type: FileTypeName,
): Promise<Uint8Array> {
  b.finish(root);
  const payload = await zstdCompress(b.asUint8Array(), 3);
  const out = new Uint8Array(HEADER_LENGTH + payload.length);
  out.set(MAGIC, 0);
  out.set(new TextEncoder().encode(WRITER_NAME.padEnd(24, " ")), 12);
  out[36] = 2;
  out[37] = FileType[type];
  out[38] = 1;
  out.set(payload, HEADER_LENGTH);
  return out;
}
