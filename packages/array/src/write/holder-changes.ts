import type { Readable, Writable } from "@z/store-core";
import {
  type ConsolidatedHolder,
  type HierarchyChange,
  readConsolidatedHolder,
} from "../consolidated/update-consolidated.js";
import { DEFAULT_CONCURRENCY, forEachConcurrent } from "../io/concurrency.js";
import { loadWritePath } from "../lazy-features.js";
import { ancestors } from "./write-nodes.js";

/**
 * Applies a change to the consolidated metadata of every group above the changed paths that
 * holds some (each holder takes the part of the change below it). Holders are read fresh and
 * updated in turn with their other updates (see `updateHolder`), so what other writers changed
 * in them meanwhile stays.
 * @param paths the paths the change touches (their proper ancestors are the candidates)
 * @returns the holders as written, by path
 */
export async function changeHolders(
  store: Readable & Writable,
  paths: readonly string[],
  zarrFormat: 2 | 3,
  change: HierarchyChange,
  options: { signal?: AbortSignal; concurrency?: number } = {},
): Promise<Map<string, ConsolidatedHolder>> {
  const { signal } = options;
  const candidates = [...new Set(paths.flatMap(ancestors))];
  const written = new Map<string, ConsolidatedHolder>();
  const { updateHolder } = await loadWritePath();
  await forEachConcurrent(
    candidates,
    options.concurrency ?? DEFAULT_CONCURRENCY,
    async (path) => {
      // Read first, so groups holding none are not rewritten.
      if (!(await readConsolidatedHolder(store, path, { zarrFormat, signal }))) return;
      const holder = await updateHolder(store, path, zarrFormat, change, { signal });
      if (holder) written.set(path, holder);
    },
    signal,
  );
  return written;
}
