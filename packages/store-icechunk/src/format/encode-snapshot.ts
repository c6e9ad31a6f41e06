import {
  addIdStruct,
  finishFile,
  idBytes,
  idVector,
  metadataVector,
  microsOf,
  newBuilder,
  offsetVector,
} from "./encode.js";
import type { ManifestRef } from "./snapshot.js";

/** A node as the snapshot writer takes it. */
export interface NodeToWrite {
  id: string;
  path: string;
  zarrJson: Uint8Array;
  kind: "array" | "group";
  manifests: ManifestRef[];
  shape: number[];
  chunkShape: number[];
}

/** A manifest file the snapshot lists. */
export interface ManifestFileInfo {
  id: string;
  sizeBytes: number;
  numChunkRefs: number;
}

/** What a snapshot file holds. */
export interface SnapshotToWrite {
  id: string;
  parentId: string | undefined;
  nodes: NodeToWrite[];
  flushedAt: Date;
  message: string;
  metadata: Array<[string, Uint8Array]>;
  manifestFiles: ManifestFileInfo[];
}

/** Orders node paths by their components, as the official implementation sorts them. */
export function comparePaths(a: string, b: string): number {
  const x = a.split("/").filter(Boolean);
  const y = b.split("/").filter(Boolean);
  for (let i = 0; i < Math.min(x.length, y.length); i++)
    if (x[i] !== y[i]) return x[i] < y[i] ? -1 : 1;
  return x.length - y.length;
}

/** Encodes a snapshot file (spec version 2). */
export async function encodeSnapshot(s: SnapshotToWrite): Promise<Uint8Array> {
  const b = newBuilder();
  const nodes = [...s.nodes].sort((x, y) => comparePaths(x.path, y.path));
  const nodeOffsets = nodes.map((n) => {
    const path = b.createString(n.path);
    const userData = b.createByteVector(n.zarrJson);
    let data: number;
    if (n.kind === "group") {
      b.startObject(0);
      data = b.endObject();
    } else {
      const refs = n.manifests.map((m) => {
        b.startVector(8, m.extents.length, 4);
        for (let i = m.extents.length - 1; i >= 0; i--) {
          b.prep(4, 8);
          b.writeInt32(m.extents[i][1]);
          b.writeInt32(m.extents[i][0]);
        }
        const extents = b.endVector();
        b.startObject(2);
        addIdStruct(b, 0, idBytes(m.manifestId, 12));
        b.addFieldOffset(1, extents, 0);
        return b.endObject();
      });
      const manifests = offsetVector(b, refs);
      b.startVector(16, n.shape.length, 8);
      for (let i = n.shape.length - 1; i >= 0; i--) {
        b.prep(8, 16);
        b.writeInt64(BigInt(n.chunkShape[i] ?? 0));
        b.writeInt64(BigInt(n.shape[i]));
      }
      const shape = b.endVector();
      const dims = n.shape.map((len, i) => {
        b.startObject(2);
        b.addFieldInt64(0, BigInt(len), 0n);
        const c = n.chunkShape[i] ?? 0;
        b.addFieldInt32(1, c === 0 ? 0 : Math.ceil(len / c), 0);
        return b.endObject();
      });
      const shapeV2 = offsetVector(b, dims);
      b.startObject(4);
      b.addFieldOffset(0, shape, 0);
      b.addFieldOffset(2, manifests, 0);
      b.addFieldOffset(3, shapeV2, 0);
      data = b.endObject();
    }
    b.startObject(5);
    addIdStruct(b, 0, idBytes(n.id, 8));
    b.addFieldOffset(1, path, 0);
    b.addFieldOffset(2, userData, 0);
    b.addFieldInt8(3, n.kind === "array" ? 1 : 2, 0);
    b.addFieldOffset(4, data, 0);
    return b.endObject();
  });
  const nodesVec = offsetVector(b, nodeOffsets);
  const message = b.createString(s.message);
  const metadata = metadataVector(b, s.metadata);
  const v1Files = idVector(b, [], 32);
  const files = [...s.manifestFiles].sort((x, y) => (x.id < y.id ? -1 : x.id > y.id ? 1 : 0));
  const fileOffsets = files.map((f) => {
    b.startObject(4);
    addIdStruct(b, 0, idBytes(f.id, 12));
    b.addFieldInt64(1, BigInt(f.sizeBytes), 0n);
    b.addFieldInt32(2, f.numChunkRefs, 0);
    return b.endObject();
  });
  const v2Files = offsetVector(b, fileOffsets);
  b.startObject(9);
  addIdStruct(b, 0, idBytes(s.id, 12));
  if (s.parentId !== undefined) addIdStruct(b, 1, idBytes(s.parentId, 12));
  b.addFieldOffset(2, nodesVec, 0);
  b.addFieldInt64(3, microsOf(s.flushedAt), 0n);
  b.addFieldOffset(4, message, 0);
  b.addFieldOffset(5, metadata, 0);
  b.addFieldOffset(6, v1Files, 0);
  b.addFieldOffset(7, v2Files, 0);
  return finishFile(b, b.endObject(), "snapshot");
}
