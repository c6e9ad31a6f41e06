import {
  MemoryStore,
  open,
  type StoreLike,
  slice,
  UnreadableNode,
  ZarrArray,
  ZarrGroup,
} from "@z/zarr";
import { InvariantError } from "./harness.js";

/**
 * What a fuzz case does with a store: open the root, and read then write back a small corner
 * of every array reached (through the group's members, consolidated or listed). Small
 * selections keep a legitimately huge array from being a legitimately huge read: any large
 * allocation left is the library's own doing.
 */

const CORNER = 4;
const MEMBERS = 4;

/** Reads a corner of the array, checks its shape, and writes it back. */
export async function readWriteCorner(arr: ZarrArray): Promise<void> {
  const selection = arr.shape.map((n) => slice(0, Math.min(n, CORNER)));
  const got = await arr.get(selection);
  const expected = arr.shape.map((n) => Math.min(n, CORNER));
  if (JSON.stringify(got.shape) !== JSON.stringify(expected)) {
    throw new InvariantError(
      `get returned shape ${JSON.stringify(got.shape)} for a ${JSON.stringify(expected)} selection`,
    );
  }
  await arr.set(selection, got);
}

/** Opens the node at `path` and exercises it (a group: its first members). */
export async function exerciseNode(store: StoreLike, path = ""): Promise<void> {
  const node = await open(store, { path });
  if (node instanceof ZarrArray) {
    await readWriteCorner(node);
    return;
  }
  if (!(node instanceof ZarrGroup))
    throw new InvariantError("open returned neither an array nor a group");
  const members = await node.members();
  for (const [, member] of members.slice(0, MEMBERS)) {
    // A member that cannot be opened holds its error: it must be as typed as a thrown one.
    if (member instanceof UnreadableNode) throw member.error;
    if (member instanceof ZarrArray) await readWriteCorner(member);
    else await member.members();
  }
}

/** A MemoryStore holding the given files (copied). */
export function storeOf(files: Iterable<readonly [string, Uint8Array]>): MemoryStore {
  return new MemoryStore(files);
}
