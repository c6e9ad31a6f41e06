import { isWritable, type Readable, ReadOnlyError, ReadOnlyStore } from "@z/store-core";
import { checkChoice } from "../create/option-checks.js";

/**
 * How a node is opened, as zarr-python's `mode`:
 * - `"r"`: read only; the node must exist, and every write through it (or through nodes opened
 *   from it) fails with `ReadOnlyError`;
 * - `"r+"`: read and write; the node must exist;
 * - `"a"`: read and write; the node is created when missing;
 * - `"w"`: create, replacing whatever is at the path (everything under it is deleted);
 * - `"w-"`: create; fails when anything is at the path.
 */
export type AccessMode = "r" | "r+" | "a" | "w" | "w-";

/** Every access mode. */
export const ACCESS_MODES: readonly AccessMode[] = ["r", "r+", "a", "w", "w-"];

/**
 * Whether a store cannot be written: it has no write methods, is a {@link ReadOnlyStore}, or
 * says so (`readOnly: true`, as an `FsStore` opened read-only does, or `supportsWrites: false`).
 */
export function storeIsReadOnly(store: Readable): boolean {
  if (store instanceof ReadOnlyStore || !isWritable(store)) return true;
  const says = store as { readOnly?: unknown; supportsWrites?: unknown };
  return says.readOnly === true || says.supportsWrites === false;
}

/**
 * The store a node opened with `mode` reads and writes: a read-only view for `"r"`, the store
 * itself otherwise. Without a mode, the store as given (read-only when it cannot be written).
 * @throws MetadataError for an unknown mode; ReadOnlyError for a mode that writes, on a store
 *   that cannot be written
 */
export function storeForMode(
  store: Readable,
  mode: AccessMode | undefined,
  path: string,
): Readable {
  checkChoice(mode, ACCESS_MODES, "mode");
  if (mode === undefined) return store;
  if (mode === "r") return storeIsReadOnly(store) ? store : new ReadOnlyStore(store);
  if (storeIsReadOnly(store)) {
    throw new ReadOnlyError(
      `/${path}`,
      `open with mode ${JSON.stringify(mode)}`,
      'the store is read-only; open it with mode "r"',
    );
  }
  return store;
}

/**
 * The error for a write through a node that cannot write: opened with mode `"r"`, or in a
 * store that cannot be written.
 */
export function nodeReadOnlyError(store: Readable, path: string, action: string): ReadOnlyError {
  const reason =
    store instanceof ReadOnlyStore
      ? 'it was opened read-only (mode "r", or a ReadOnlyStore)'
      : "the store is read-only";
  return new ReadOnlyError(`/${path}`, action, reason);
}
