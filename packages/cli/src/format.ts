import type { Group, ZarrArray } from "@z/zarr";
import { arraySummary } from "@z/zarr/internal";

/** The one-line summary of a node used by `tree`. */
export function nodeSummary(node: ZarrArray | Group): string {
  if (!("shape" in node)) return "";
  return arraySummary(node);
}
