// The one-line summaries of `tree`, kept out of tree.ts so that a caller walking a hierarchy its
// own way (the CLI) prints the same lines.
import type { ZarrArray } from "./array.js";
import type { ZarrGroup } from "./group.js";
import { formatShape } from "./info-rows.js";

/**
 * The one-line summary of an array in a tree: `(4, 6) float32 chunks=(3, 4)`; a grid whose
 * chunks differ in shape shows its edge lengths: `chunks=rectilinear[[10,20,5],8]`.
 */
export function arraySummary(array: ZarrArray): string {
  return `${formatShape(array.shape)} ${array.dtype} chunks=${chunksSummary(array)}`;
}

/** The chunks of an array in a summary: `(3, 4)`, or `rectilinear[[10,20,5],8]`. */
export function chunksSummary(array: ZarrArray): string {
  const grid = array.metadata.chunkGrid;
  if (grid.name === "regular") return formatShape(array.chunks);
  const config = grid.toJson().configuration as { chunk_shapes?: unknown } | undefined;
  return `${grid.name}${JSON.stringify(config?.chunk_shapes ?? config ?? {})}`;
}

/** The first line of a group's tree: `/path (group, v3)`. */
export function groupTitle(group: ZarrGroup): string {
  return `/${group.path} (group, v${group.zarrFormat})`;
}
