import { consolidateMetadata } from "@z/zarr";
import { openLocation } from "../location.js";
import type { Output } from "../output.js";

/** Options of `zarr consolidate`. */
export interface ConsolidateCommandOptions {
  /** The path of the group whose hierarchy is consolidated (default the root). */
  path?: string;
}

/**
 * `zarr consolidate <location> [--path P]`: writes the consolidated metadata of the group's
 * hierarchy with the library's `consolidateMetadata` (v2 `.zmetadata`, v3 inline
 * `consolidated_metadata` in `zarr.json`), then says how many nodes it holds and where.
 */
export async function consolidateCommand(
  output: Output,
  location: string,
  options: ConsolidateCommandOptions = {},
): Promise<void> {
  const store = await openLocation(location);
  const group = await consolidateMetadata(store, { path: options.path });
  const count = group.consolidated?.size ?? 0;
  const where =
    group.zarrFormat === 2
      ? `${group.path === "" ? "" : `${group.path}/`}.zmetadata`
      : `the consolidated_metadata of ${group.path === "" ? "" : `${group.path}/`}zarr.json`;
  output.out(
    `Consolidated ${count} node${count === 1 ? "" : "s"} below /${group.path} into ${where}\n`,
  );
}
