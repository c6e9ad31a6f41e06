import { addIdStruct, finishFile, idBytes, newBuilder, offsetVector, u32Vector } from "./encode.js";
import type { ChunkPayload } from "./manifest.js";

/** One array's chunk references for a manifest: node id and `index.join(",")` → payload. */
export interface ManifestArray {
  nodeId: string;
  refs: Map<string, ChunkPayload>;
}

/** Encodes a manifest file (spec version 2); arrays sorted by node id, refs by index. */
export async function encodeManifest(id: string, arrays: ManifestArray[]): Promise<Uint8Array> {
  const b = newBuilder();
  const sorted = [...arrays].sort((x, y) =>
    compareBytes(idBytes(x.nodeId, 8), idBytes(y.nodeId, 8)),
  );
  const arrayOffsets = sorted.map(({ nodeId, refs }) => {
    const entries = [...refs.entries()]
      .map(([k, v]) => [k === "" ? [] : k.split(",").map(Number), v] as const)
      .sort((x, y) => compareIndex(x[0], y[0]));
    const refOffsets = entries.map(([index, payload]) => {
      const indexVec = u32Vector(b, index);
      const inline = payload.kind === "inline" ? b.createByteVector(payload.bytes) : 0;
      const location = payload.kind === "virtual" ? b.createString(payload.location) : 0;
      b.startObject(10);
      b.addFieldOffset(0, indexVec, 0);
      if (inline) b.addFieldOffset(1, inline, 0);
      if (payload.kind !== "inline") {
        b.addFieldInt64(2, BigInt(payload.offset), 0n);
        b.addFieldInt64(3, BigInt(payload.length), 0n);
      }
      if (payload.kind === "native") addIdStruct(b, 4, idBytes(payload.chunkId, 12));
      if (location) b.addFieldOffset(5, location, 0);
      return b.endObject();
    });
    const refVec = offsetVector(b, refOffsets);
    b.startObject(3);
    addIdStruct(b, 0, idBytes(nodeId, 8));
    b.addFieldOffset(1, refVec, 0);
    return b.endObject();
  });
  const arraysVec = offsetVector(b, arrayOffsets);
  b.startObject(5);
  addIdStruct(b, 0, idBytes(id, 12));
  b.addFieldOffset(1, arraysVec, 0);
  b.addFieldInt8(3, 0, 1);
  return finishFile(b, b.endObject(), "manifest");
}

/** Lexicographic order of byte strings. */
export function compareBytes(a: Uint8Array, b: Uint8Array): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i] - b[i];
  return a.length - b.length;
}

function compareIndex(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i] - b[i];
  return a.length - b.length;
}
