import { type JsonObject, UnreadableNode, ZarrArray, ZarrGroup } from "@z/zarr";
import { type Multiscale, parseOmeMetadata } from "@z/zarr/ome";

/** One node of the hierarchy as the tree panel shows it. */
export interface TreeNode {
  /** The node's path below the opened root (`""` for the root). */
  path: string;
  /** The opened array or group. */
  node: ZarrArray | ZarrGroup;
  /** A group's multiscale images (OME-Zarr). */
  multiscales: Multiscale[];
  /** A group's children, in name order. */
  children: TreeNode[];
  /** Why the children are not (all) shown, if so. */
  note?: string;
}

/** How deep and wide the tree panel goes: huge hierarchies stay browsable. */
const MAX_DEPTH = 8;
const MAX_CHILDREN = 500;

/**
 * The hierarchy below a node. Groups list their children from consolidated metadata or a
 * listable store; over plain HTTP without consolidated metadata nothing can be listed, but an
 * OME-Zarr image names its levels, so those are opened directly.
 */
export async function walkHierarchy(
  node: ZarrArray | ZarrGroup,
  path = "",
  depth = 0,
): Promise<TreeNode> {
  if (node instanceof ZarrArray) return { path, node, multiscales: [], children: [] };
  const { multiscales, problem } = multiscalesOf(node.attrs, path);
  const tree: TreeNode = { path, node, multiscales, children: [] };
  if (problem) addNote(tree, problem);
  if (depth >= MAX_DEPTH) {
    addNote(tree, "deeper levels not shown");
    return tree;
  }
  let members: [string, ZarrArray | ZarrGroup][];
  try {
    const listed = await node.members();
    members = listed.filter(
      (entry): entry is [string, ZarrArray | ZarrGroup] => !(entry[1] instanceof UnreadableNode),
    );
    const unreadable = listed.length - members.length;
    if (unreadable > 0) addNote(tree, `${unreadable} children cannot be opened`);
  } catch (error) {
    // No listing: show what the OME metadata names, and say why the rest is missing.
    const named = multiscales.flatMap((m) => m.datasets.map((d) => d.path));
    members = [];
    for (const level of new Set(named)) {
      const child = await node.get(level).catch(() => undefined);
      if (child) members.push([level, child]);
    }
    addNote(tree, `children not listed (${(error as Error).message.split("\n")[0]})`);
  }
  if (members.length > MAX_CHILDREN) {
    addNote(tree, `${members.length - MAX_CHILDREN} more children not shown`);
    members = members.slice(0, MAX_CHILDREN);
  }
  for (const [name, child] of members)
    tree.children.push(await walkHierarchy(child, path ? `${path}/${name}` : name, depth + 1));
  return tree;
}

/**
 * The multiscale images a group's OME-Zarr metadata describes (none for a group without OME
 * metadata), or why that metadata cannot be used.
 */
function multiscalesOf(
  attributes: JsonObject,
  path: string,
): { multiscales: Multiscale[]; problem?: string } {
  const ome = attributes.ome ?? attributes.multiscales;
  if (ome === undefined) return { multiscales: [] };
  try {
    return { multiscales: parseOmeMetadata(attributes, { path }).multiscales };
  } catch (error) {
    return { multiscales: [], problem: `not shown as an image: ${(error as Error).message}` };
  }
}

/** Adds to what the tree panel says under a node. */
function addNote(tree: TreeNode, note: string): void {
  tree.note = tree.note ? `${tree.note}; ${note}` : note;
}

/** Whether a node is a group (the tree panel draws groups and arrays differently). */
export function isGroup(node: ZarrArray | ZarrGroup): node is ZarrGroup {
  return node instanceof ZarrGroup;
}
