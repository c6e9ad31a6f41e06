import { ZarrArray, type ZarrGroup } from "@z/zarr";
import { UsageError } from "../errors.js";
import { arrayStats } from "./array-stats.js";
import type { NumericStats } from "./numeric-stats.js";

/**
 * The statistics `zarr info --stats` prints for a node.
 * @throws UsageError for a group (statistics are of one array's values)
 */
export function nodeStats(node: ZarrArray | ZarrGroup, bins?: number): Promise<NumericStats> {
  if (!(node instanceof ZarrArray)) {
    throw new UsageError(
      `--stats needs an array; /${node.path} is a group (choose one of its arrays with --path)`,
      "info",
    );
  }
  return arrayStats(node, { bins });
}
