import type { StoreLike } from "@z/store-core";
import type { ZarrGroup } from "../nodes/group.js";
import { openGroup } from "../nodes/nodes.js";
import type { OpenOptions } from "../nodes/open-array.js";

/**
 * Opens a group through its consolidated metadata, which must be there: the whole hierarchy
 * below it is then listed and opened from that one document, as zarr-python's
 * `open_consolidated`. `openGroup` uses consolidated metadata too when present; this one refuses
 * a group without it rather than reading node by node.
 * @throws NotFoundError when there is no group at the path, or it has no consolidated metadata
 *   (v3 inline `consolidated_metadata`, v2 `.zmetadata`); MetadataError when it is malformed
 * @example
 * ```ts
 * const root = await openConsolidated("https://example.org/data.zarr");
 * console.log(await root.tree()); // no read beyond the root's metadata
 * ```
 * @category Open and create
 */
export function openConsolidated(
  store: StoreLike | string,
  options: Omit<OpenOptions, "kind" | "consolidated"> = {},
): Promise<ZarrGroup> {
  return openGroup(store, { ...options, consolidated: true });
}
