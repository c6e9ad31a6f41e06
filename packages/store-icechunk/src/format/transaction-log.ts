import { idOf, readRootTable } from "./decode-context.js";
import type { FbTable } from "./flatbuffers.js";
import type { DecodeLimits, FileHeader } from "./header.js";
import { encodeObjectId } from "./object-id.js";

/** A node that changed path in a commit (spec version 2). */
export interface MovedNode {
  /** Its path in the parent snapshot. */
  from: string;
  /** Its path in this snapshot. */
  to: string;
  /** Its node id (base 32). */
  nodeId: string;
  /** Whether it is a group or an array. */
  nodeType: "group" | "array";
}

/** A transaction log file: what one commit changed, by node id. */
export interface TransactionLog {
  /** The file's header. */
  header: FileHeader;
  /** The snapshot id it belongs to. */
  id: string;
  /** Node ids (base 32) of the groups created. */
  newGroups: string[];
  /** Node ids of the arrays created. */
  newArrays: string[];
  /** Node ids of the groups deleted. */
  deletedGroups: string[];
  /** Node ids of the arrays deleted. */
  deletedArrays: string[];
  /** Node ids of the arrays whose metadata changed. */
  updatedArrays: string[];
  /** Node ids of the groups whose metadata changed. */
  updatedGroups: string[];
  /** Per array node id, the chunk coordinates whose references were added, changed or deleted. */
  updatedChunks: Map<string, number[][]>;
  /** The nodes moved (empty in spec version 1 logs). */
  movedNodes: MovedNode[];
}

function nodeIds(root: FbTable, id: number, name: string): string[] {
  return (root.structs(id, 8, name) ?? root.buf.fail(`TransactionLog.${name} is missing`)).map(
    (bytes) => encodeObjectId(bytes),
  );
}

/** Decodes a transaction log file. @throws IcechunkFormatError */
export async function decodeTransactionLog(
  file: string,
  bytes: Uint8Array,
  limits: DecodeLimits,
): Promise<TransactionLog> {
  const { header, buf, root } = await readRootTable(
    file,
    bytes,
    "transactionLog",
    limits,
    "TransactionLog",
  );
  const updatedChunks = new Map<string, number[][]>();
  for (const array of root.requiredTables(7, "updated_chunks")) {
    const nodeId = idOf(array.struct(0, 8, "node_id"), buf, "ArrayUpdatedChunks.node_id");
    const chunks = array
      .requiredTables(1, "chunks")
      .map((c) => c.u32s(0, "coords") ?? buf.fail("ChunkIndices.coords is missing"));
    updatedChunks.set(nodeId, chunks);
  }
  const movedNodes = (root.tables(8, "moved_nodes") ?? []).map((m) => ({
    from: m.requiredString(0, "from"),
    to: m.requiredString(1, "to"),
    nodeId: idOf(m.struct(2, 8, "node_id"), buf, "MoveOperation.node_id"),
    nodeType: m.u8(3, "node_type") === 1 ? ("array" as const) : ("group" as const),
  }));
  return {
    header,
    id: idOf(root.struct(0, 12, "id"), buf, "TransactionLog.id"),
    newGroups: nodeIds(root, 1, "new_groups"),
    newArrays: nodeIds(root, 2, "new_arrays"),
    deletedGroups: nodeIds(root, 3, "deleted_groups"),
    deletedArrays: nodeIds(root, 4, "deleted_arrays"),
    updatedArrays: nodeIds(root, 5, "updated_arrays"),
    updatedGroups: nodeIds(root, 6, "updated_groups"),
    updatedChunks,
    movedNodes,
  };
}
