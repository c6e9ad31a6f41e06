import { MetadataError } from "@z/metadata";
import { shown } from "../create/option-checks.js";

/**
 * The `maxDepth` option of member listings, as a number of levels below the direct children:
 * `0` (the default) lists the children only, `Infinity` or `null` the whole subtree
 * (zarr-python's `max_depth=None`).
 * @throws MetadataError for anything but a non-negative integer, Infinity or null
 */
export function checkMaxDepth(maxDepth: number | null | undefined): number {
  if (maxDepth === undefined) return 0;
  if (maxDepth === null || maxDepth === Number.POSITIVE_INFINITY) return Number.POSITIVE_INFINITY;
  if (!Number.isInteger(maxDepth) || maxDepth < 0) {
    throw new MetadataError(
      `The maxDepth option must be a non-negative integer, Infinity or null (the whole subtree), got ${shown(maxDepth)}`,
    );
  }
  return maxDepth;
}

/**
 * Direct members followed, each, by what `below` lists under it (paths made relative to the
 * listing group), depth-first, in the order given: parents before their children.
 * @param below the members under a node (with one level less to go), or undefined for a
 *   node that has none (an array, an unreadable node)
 */
export async function withDescendants<N>(
  direct: [string, N][],
  below: (node: N) => Promise<[string, N][]> | undefined,
): Promise<[string, N][]> {
  const out: [string, N][] = [];
  for (const [name, node] of direct) {
    out.push([name, node]);
    const deeper = await below(node);
    if (deeper) for (const [path, child] of deeper) out.push([`${name}/${path}`, child]);
  }
  return out;
}
