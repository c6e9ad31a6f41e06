import { ConflictError, type Readable, type Writable } from "@z/store-core";
import { hasConditionalWrites } from "@z/store-core/internal";
import { withKeyLock } from "./key-lock.js";

/** The metadata documents whose presence makes a node: writing one first claims the path. */
const NODE_DOCUMENTS = new Set(["zarr.json", ".zarray", ".zgroup"]);

/** Whether a store key is a node's defining metadata document (`zarr.json`, `.zarray`, `.zgroup`). */
export function isNodeDocument(key: string): boolean {
  return NODE_DOCUMENTS.has(key.slice(key.lastIndexOf("/") + 1));
}

/**
 * Writes `value` at `key` only if the key does not exist, atomically where the store can:
 * with `setIfNotExists` (FsStore: a hard link; HttpStore: `If-None-Match: *`), else with a
 * conditional write (`ifNoneMatch: "*"`), else (a store that can do neither) checked and written
 * in turn with the other writes of the key in this process only.
 * @returns whether it wrote (false: the key was there, or another writer got there first)
 */
export async function createExclusive(
  store: Readable & Writable,
  key: string,
  value: Uint8Array,
  signal?: AbortSignal,
): Promise<boolean> {
  if (store.setIfNotExists) return store.setIfNotExists(key, value, { signal });
  if (hasConditionalWrites(store)) {
    try {
      await store.set(key, value, { ifNoneMatch: "*", signal });
      return true;
    } catch (error) {
      if (error instanceof ConflictError) return false;
      throw error;
    }
  }
  return withKeyLock(store, key, async () => {
    if ((await store.get(key, { signal })) !== undefined) return false;
    await store.set(key, value, { signal });
    return true;
  });
}
