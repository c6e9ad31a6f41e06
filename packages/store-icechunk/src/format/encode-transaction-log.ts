import {
  addIdStruct,
  finishFile,
  idBytes,
  idVector,
  newBuilder,
  offsetVector,
  u32Vector,
} from "./encode.js";
import { compareBytes } from "./encode-manifest.js";

/** What a commit changed, by node id (base 32), as its transaction log records it. */
export interface ChangesToWrite {
  newGroups: string[];
  newArrays: string[];
  deletedGroups: string[];
  deletedArrays: string[];
  updatedArrays: string[];
  updatedGroups: string[];
  /** Node id → written chunk indices. */
  updatedChunks: Map<string, number[][]>;
}

/** Encodes a transaction log file (spec version 2); ids and indices sorted. */
export async function encodeTransactionLog(id: string, c: ChangesToWrite): Promise<Uint8Array> {
  const b = newBuilder();
  const ids = (list: string[]) => idVector(b, list.map((x) => idBytes(x, 8)).sort(compareBytes), 8);
  const chunkNodes = [...c.updatedChunks.keys()].sort((x, y) =>
    compareBytes(idBytes(x, 8), idBytes(y, 8)),
  );
  const chunkOffsets = chunkNodes.map((node) => {
    const coords = [...(c.updatedChunks.get(node) ?? [])].sort((x, y) => {
      for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return x[i] - y[i];
      return 0;
    });
    const indices = coords.map((cs) => {
      const v = u32Vector(b, cs);
      b.startObject(1);
      b.addFieldOffset(0, v, 0);
      return b.endObject();
    });
    const vec = offsetVector(b, indices);
    b.startObject(2);
    addIdStruct(b, 0, idBytes(node, 8));
    b.addFieldOffset(1, vec, 0);
    return b.endObject();
  });
  const fields = [
    ids(c.newGroups),
    ids(c.newArrays),
    ids(c.deletedGroups),
    ids(c.deletedArrays),
    ids(c.updatedArrays),
    ids(c.updatedGroups),
    offsetVector(b, chunkOffsets),
  ];
  b.startObject(10);
  addIdStruct(b, 0, idBytes(id, 12));
  for (const [i, f] of fields.entries()) b.addFieldOffset(i + 1, f, 0);
  return finishFile(b, b.endObject(), "transactionLog");
}
