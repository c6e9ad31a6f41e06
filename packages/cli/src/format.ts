import type { ZarrArray, ZarrGroup } from "@z/zarr";
import { arraySummary } from "@z/zarr";

/** The one-line summary of a node used by `tree`. */
export function nodeSummary(node: ZarrArray | ZarrGroup): string {
  if (!("shape" in node)) return "";
  return arraySummary(node);
}
