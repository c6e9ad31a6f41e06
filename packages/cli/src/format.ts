import { arraySummary, type Group, type ZarrArray } from "@z/zarr";

/** The one-line summary of a node used by `tree`. */
export function nodeSummary(node: ZarrArray | Group): string {
  if (!("shape" in node)) return "";
  return arraySummary(node);
}
