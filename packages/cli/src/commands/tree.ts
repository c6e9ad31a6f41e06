import { type Group, open, ZarrArray } from "@z/zarr";
import { nodeSummary } from "../format.js";
import { openLocation } from "../location.js";
import type { Output } from "../output.js";

async function printChildren(output: Output, group: Group, indent: string): Promise<void> {
  const names = await group.childNames();
  for (const [index, name] of names.entries()) {
    const last = index === names.length - 1;
    const branch = last ? "└── " : "├── ";
    // One node this library cannot open must not hide the rest of the hierarchy.
    const node = await group.get(name).catch((error: Error) => error);
    if (node instanceof Error) {
      output.out(`${indent}${branch}${name} (cannot open: ${node.name}: ${node.message})\n`);
    } else if (node instanceof ZarrArray) {
      output.out(`${indent}${branch}${name} ${nodeSummary(node)}\n`);
    } else {
      output.out(`${indent}${branch}${name}/\n`);
      await printChildren(output, node, indent + (last ? "    " : "│   "));
    }
  }
}

/** `zarr tree <location> [--path P]`: the hierarchy with shapes, data types and chunking. */
export async function treeCommand(output: Output, location: string, path: string | undefined): Promise<void> {
  const store = await openLocation(location);
  const node = await open(store, { path });
  const title = `/${node.path}`;
  if (node instanceof ZarrArray) {
    output.out(`${title} ${nodeSummary(node)}\n`);
    return;
  }
  output.out(`${title} (group, v${node.zarrFormat})\n`);
  await printChildren(output, node, "");
}
