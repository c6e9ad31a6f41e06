import { MetadataError } from "@z/metadata";
import { isListable, prefixOf, type Readable, ReadOnlyError } from "@z/store-core";
import { ContainsArrayError, ContainsGroupError, NotEmptyError } from "../errors.js";
import { readNodeMetadata } from "../nodes/metadata-io.js";
import type { AccessMode } from "../nodes/open-mode.js";
import { bumpAllEpochs } from "./key-lock.js";

/**
 * Makes the path ready for a node created with `mode` and says whether the creation replaces
 * a node there:
 * - `"w"`: replaces; with no node there, whatever else is stored under the path is deleted
 *   first (a node there is deleted by the creation, which also drops it from the consolidated
 *   metadata that lists it);
 * - `"w-"`: nothing may be stored under the path (checked by listing; a store that cannot list
 *   is checked for a node only, by the creation);
 * - `"r"`: refused, it creates nothing;
 * - `"a"`, `"r+"` or none: replaces only with `overwrite`.
 * @throws ReadOnlyError for `"r"`; ContainsArrayError, ContainsGroupError or NotEmptyError
 *   for `"w-"` where something is; MetadataError for `"w-"` with `overwrite`
 */
export async function prepareModeTarget(
  store: Readable,
  path: string,
  mode: AccessMode | undefined,
  options: { overwrite?: boolean; signal?: AbortSignal } = {},
): Promise<boolean> {
  const { signal } = options;
  if (mode === "r") {
    throw new ReadOnlyError(`/${path}`, "create a node at", 'mode "r" only opens existing nodes');
  }
  if (mode === "w-") {
    if (options.overwrite) throw new MetadataError('Mode "w-" never overwrites: drop overwrite');
    await checkNothingAt(store, path, signal);
    return false;
  }
  if (mode === "w") {
    const node = await readNodeMetadata(store, path, { consolidated: false, signal });
    const writable = store as Partial<{ deletePrefix(prefix: string, o?: object): Promise<void> }>;
    if (!node && writable.deletePrefix) {
      await writable.deletePrefix(prefixOf(path), { signal });
      bumpAllEpochs();
    }
    return true;
  }
  return options.overwrite === true;
}

async function checkNothingAt(store: Readable, path: string, signal?: AbortSignal): Promise<void> {
  if (!isListable(store)) return;
  for await (const key of store.listPrefix(prefixOf(path))) {
    const node = await readNodeMetadata(store, path, { consolidated: false, signal });
    const hint = 'mode "w-" creates only where nothing is; use mode "w" to replace it';
    if (node?.kind === "array") throw new ContainsArrayError(path, hint);
    if (node?.kind === "group") throw new ContainsGroupError(path, hint);
    throw new NotEmptyError(path, key);
  }
}
