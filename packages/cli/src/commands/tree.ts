import { open, treeLines, ZarrArray } from "@z/zarr";
import { nodeSummary } from "../format.js";
import { openLocation } from "../location.js";
import type { Output } from "../output.js";

/**
 * `zarr tree <location> [--path P]`: the hierarchy with shapes, data types and chunking, drawn
 * by `Group.tree`'s renderer line by line; a node that cannot be opened shows its error and the
 * rest still prints.
 */
export async function treeCommand(
  output: Output,
  location: string,
  path: string | undefined,
): Promise<void> {
  const store = await openLocation(location);
  const node = await open(store, { path });
  if (node instanceof ZarrArray) {
    output.out(`/${node.path} ${nodeSummary(node)}\n`);
    return;
  }
  for await (const line of treeLines(node)) output.out(`${line}\n`);
}
