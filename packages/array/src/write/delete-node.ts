import {
  isListable,
  prefixOf,
  type Readable,
  UnsupportedOperationError,
  type Writable,
} from "@z/store-core";
import type { ConsolidatedHolder } from "../consolidated/update-consolidated.js";
import { logNode } from "../logging/node-logging.js";
import { changeHolders } from "./holder-changes.js";
import { bumpAllEpochs } from "./key-lock.js";

/**
 * Deletes a node and every key below it. The consolidated metadata of the groups above it that
 * hold some stops listing it first, then its keys are deleted, so that metadata never lists a
 * node that is gone. A failure while deleting the keys leaves part of them (the node unlisted):
 * deleting it again finishes the job while its metadata document is among them, and
 * `store.deletePrefix("<path>/")` in any case.
 * @returns the holders of consolidated metadata as written, by path
 * @throws UnsupportedOperationError, before any change, when the store cannot list keys (as
 *   zarr-python, which deletes a directory by listing it): such a store (HTTP) cannot delete
 *   by prefix either
 */
export async function deleteNode(
  store: Readable & Writable,
  path: string,
  kind: "array" | "group",
  zarrFormat: 2 | 3,
  options: { signal?: AbortSignal; concurrency?: number } = {},
): Promise<Map<string, ConsolidatedHolder>> {
  if (!isListable(store)) {
    throw new UnsupportedOperationError(
      `Cannot delete /${path}: the store cannot list keys, so the keys below the node are unknown`,
    );
  }
  const holders = await changeHolders(store, [path], zarrFormat, { removed: [path] }, options);
  await store.deletePrefix(prefixOf(path), { signal: options.signal });
  bumpAllEpochs();
  logNode("deleted", kind, path, () => `(v${zarrFormat})`);
  return holders;
}
