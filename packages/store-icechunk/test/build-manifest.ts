import { Builder } from "flatbuffers";
import { MAGIC } from "../src/format/header.js";

/*
 * A manifest file built the way the spec lays it out, for what the official writer's JavaScript
 * API cannot write: virtual chunk references (and corrupt variants).
 */

/** One virtual chunk reference. */
export interface VirtualRefSpec {
  index: number[];
  location: string;
  offset: number;
  length: number;
  etag?: string;
  lastModified?: number;
}

function addStruct(b: Builder, slot: number, bytes: Uint8Array): void {
  b.prep(1, bytes.length);
  for (let i = bytes.length - 1; i >= 0; i--) b.writeInt8(bytes[i]);
  b.addFieldStruct(slot, b.offset(), 0);
}

/** Locations compressed with a zstd dictionary, as spec version 2 manifests may hold them. */
export interface LocationCompression {
  /** The manifest's location dictionary; without one the manifest is corrupt. */
  dictionary?: Uint8Array;
  compress(location: string): Uint8Array;
}

function chunkRef(b: Builder, ref: VirtualRefSpec, compression?: LocationCompression): number {
  b.startVector(4, ref.index.length, 4);
  for (let i = ref.index.length - 1; i >= 0; i--) b.addInt32(ref.index[i]);
  const index = b.endVector();
  const location = compression
    ? b.createByteVector(compression.compress(ref.location))
    : b.createString(ref.location);
  const etag = ref.etag === undefined ? 0 : b.createString(ref.etag);
  b.startObject(10);
  b.addFieldOffset(0, index, 0);
  b.addFieldInt64(2, BigInt(ref.offset), 0n);
  b.addFieldInt64(3, BigInt(ref.length), 0n);
  b.addFieldOffset(compression ? 8 : 5, location, 0);
  if (etag) b.addFieldOffset(6, etag, 0);
  if (ref.lastModified !== undefined) b.addFieldInt32(7, ref.lastModified, 0);
  return b.endObject();
}

/** The flatbuffers payload of a manifest holding virtual references for one array. */
export function manifestPayload(
  manifestId: Uint8Array,
  nodeId: Uint8Array,
  refs: VirtualRefSpec[],
  compression?: LocationCompression,
): Uint8Array {
  const b = new Builder(1024);
  const refOffsets = refs.map((r) => chunkRef(b, r, compression));
  b.startVector(4, refOffsets.length, 4);
  for (let i = refOffsets.length - 1; i >= 0; i--) b.addOffset(refOffsets[i]);
  const refVector = b.endVector();
  b.startObject(3);
  addStruct(b, 0, nodeId);
  b.addFieldOffset(1, refVector, 0);
  const array = b.endObject();
  b.startVector(4, 1, 4);
  b.addOffset(array);
  const arrays = b.endVector();
  const dictionary = compression?.dictionary ? b.createByteVector(compression.dictionary) : 0;
  b.startObject(5);
  addStruct(b, 0, manifestId);
  b.addFieldOffset(1, arrays, 0);
  if (dictionary) b.addFieldOffset(2, dictionary, 0);
  b.addFieldInt8(3, compression ? 1 : 0, 1);
  b.finish(b.endObject());
  return b.asUint8Array().slice();
}

/** A metadata file: the 39-byte header, then the payload as given (compression byte as said). */
export function metadataFile(
  fileType: number,
  specVersion: number,
  compression: 0 | 1,
  payload: Uint8Array,
): Uint8Array {
  const out = new Uint8Array(39 + payload.length);
  out.set(MAGIC, 0);
  out.set(new TextEncoder().encode("z-test".padEnd(24, " ")), 12);
  out[36] = specVersion;
  out[37] = fileType;
  out[38] = compression;
  out.set(payload, 39);
  return out;
}
