import {
  DEFAULT_CONCURRENCY,
  forEachConcurrent,
  open,
  treeLines,
  ZarrArray,
  type ZarrGroup,
} from "@z/zarr";
import { nodeSummary } from "../format.js";
import { openLocation } from "../location.js";
import { type ArrayJson, type GroupJson, nodeJson } from "../node-json.js";
import type { Output } from "../output.js";
import { prettyJson } from "../pretty-json.js";

/** Options of `zarr tree`. */
export interface TreeCommandOptions {
  /** The path of the node to start from. */
  path?: string;
  /** Print one JSON object of nested nodes instead of the drawing. */
  json?: boolean;
}

/** A node of `zarr tree --json`: an array, a group with its children, or a node that failed to open. */
export type TreeJson =
  | (ArrayJson & { name?: string })
  | (GroupJson & { name?: string; children: TreeJson[] })
  | { name: string; path: string; error: { name: string; message: string } };

/** The hierarchy below a node as {@link TreeJson}, children sorted by name. */
export async function treeJson(node: ZarrArray | ZarrGroup, name?: string): Promise<TreeJson> {
  const own = name === undefined ? {} : { name };
  if (node instanceof ZarrArray) return { ...own, ...(nodeJson(node) as ArrayJson) };
  const names = await node.childNames();
  const children: TreeJson[] = new Array(names.length);
  await forEachConcurrent(names.keys(), DEFAULT_CONCURRENCY, async (i) => {
    const childPath = node.path === "" ? names[i] : `${node.path}/${names[i]}`;
    try {
      children[i] = await treeJson(await node.get(names[i]), names[i]);
    } catch (error) {
      // One node that cannot be opened must not hide the rest of the hierarchy.
      const e = error instanceof Error ? error : new Error(String(error));
      children[i] = {
        name: names[i],
        path: `/${childPath}`,
        error: { name: e.name, message: e.message },
      };
    }
  });
  return { ...own, ...(nodeJson(node) as GroupJson), children };
}

/**
 * `zarr tree <location> [--path P] [--json]`: the hierarchy with shapes, data types and
 * chunking, drawn by `ZarrGroup.tree`'s renderer line by line (or as one JSON object); a node that
 * cannot be opened shows its error and the rest still prints.
 */
export async function treeCommand(
  output: Output,
  location: string,
  options: TreeCommandOptions | string | undefined = {},
): Promise<void> {
  const { path, json } = typeof options === "object" ? options : { path: options, json: false };
  const store = await openLocation(location);
  const node = await open(store, { path });
  if (json) {
    output.out(`${prettyJson(await treeJson(node))}\n`);
    return;
  }
  if (node instanceof ZarrArray) {
    output.out(`/${node.path} ${nodeSummary(node)}\n`);
    return;
  }
  for await (const line of treeLines(node)) output.out(`${line}\n`);
}
