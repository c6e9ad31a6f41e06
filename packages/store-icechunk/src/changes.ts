import type { Snapshot } from "./format/snapshot.js";
import type { MovedNode, TransactionLog } from "./format/transaction-log.js";

/** What one commit changed, by node path (as Icechunk's `diff` of a snapshot and its parent). */
export interface SnapshotChanges {
  /** Paths of the groups created. */
  newGroups: string[];
  /** Paths of the arrays created. */
  newArrays: string[];
  /** Paths (in the parent snapshot) of the groups deleted. */
  deletedGroups: string[];
  /** Paths (in the parent snapshot) of the arrays deleted. */
  deletedArrays: string[];
  /** Paths of the groups whose metadata changed. */
  updatedGroups: string[];
  /** Paths of the arrays whose metadata changed. */
  updatedArrays: string[];
  /** Per array path, the chunk coordinates whose references were added, changed or deleted. */
  updatedChunks: Record<string, number[][]>;
  /** The nodes moved. */
  movedNodes: MovedNode[];
}

/**
 * A transaction log's node ids as paths: of the snapshot for what exists after the commit, of
 * the parent for what it deleted. An id neither knows is kept as `#<node id>`.
 */
export function changesOf(
  log: TransactionLog,
  snapshot: Snapshot,
  parent: Snapshot | undefined,
): SnapshotChanges {
  const after = new Map(snapshot.nodes.map((n) => [n.id, n.path]));
  const before = new Map((parent?.nodes ?? []).map((n) => [n.id, n.path]));
  const pathOf = (id: string, where: Map<string, string>) =>
    where.get(id) ?? after.get(id) ?? before.get(id) ?? `#${id}`;
  const paths = (ids: string[], where: Map<string, string>) =>
    ids.map((id) => pathOf(id, where)).sort();
  const updatedChunks: Record<string, number[][]> = {};
  for (const [id, chunks] of log.updatedChunks) {
    Object.defineProperty(updatedChunks, pathOf(id, after), {
      value: chunks,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return {
    newGroups: paths(log.newGroups, after),
    newArrays: paths(log.newArrays, after),
    deletedGroups: paths(log.deletedGroups, before),
    deletedArrays: paths(log.deletedArrays, before),
    updatedGroups: paths(log.updatedGroups, after),
    updatedArrays: paths(log.updatedArrays, after),
    updatedChunks,
    movedNodes: log.movedNodes,
  };
}
