import { DEFAULT_CONCURRENCY, forEachConcurrent } from "../io/concurrency.js";
import { ZarrArray } from "./array.js";
import type { ZarrGroup } from "./group.js";
import { arraySummary, groupTitle } from "./tree-summary.js";

/** Options of {@link renderTree} and {@link treeLines}. */
export interface TreeOptions {
  /** How many levels below the group to show (default all). */
  level?: number;
  /** Children opened at once (default 8). */
  concurrency?: number;
  /** Abort the reads. */
  signal?: AbortSignal;
}

type Child = ZarrArray | ZarrGroup | Error;

async function openChildren(
  group: ZarrGroup,
  names: string[],
  options: TreeOptions,
): Promise<Child[]> {
  const children: Child[] = new Array(names.length);
  await forEachConcurrent(
    names.keys(),
    options.concurrency ?? DEFAULT_CONCURRENCY,
    async (i) => {
      // One node this library cannot open must not hide the rest of the hierarchy.
      children[i] = await group
        .get(names[i], options)
        .catch((error: unknown) => (error instanceof Error ? error : new Error(String(error))));
    },
    options.signal,
  );
  return children;
}

async function* childLines(
  group: ZarrGroup,
  indent: string,
  depth: number,
  options: TreeOptions,
): AsyncGenerator<string> {
  const names = await group.childNames(options);
  const children = await openChildren(group, names, options);
  for (const [index, name] of names.entries()) {
    const last = index === names.length - 1;
    const branch = last ? "└── " : "├── ";
    const node = children[index];
    if (node instanceof Error) {
      yield `${indent}${branch}${name} (cannot open: ${node.name}: ${node.message})`;
    } else if (node instanceof ZarrArray) {
      yield `${indent}${branch}${name} ${arraySummary(node)}`;
    } else {
      yield `${indent}${branch}${name}/`;
      if (options.level === undefined || depth < options.level) {
        yield* childLines(node, indent + (last ? "    " : "│   "), depth + 1, options);
      }
    }
  }
}

/**
 * The lines of a group's tree, one at a time (so a large hierarchy prints as it is read): the
 * title, then every node below, children sorted by name, arrays with their shape, data type
 * and chunks. A child that cannot be opened shows as `name (cannot open: Error: message)`
 * and the rest still prints. With consolidated metadata, no reads beyond the group's own.
 *
 * ```text
 * / (group, v3)
 * ├── raw/
 * │   └── counts (1000,) uint32 chunks=(100,)
 * └── temperature (365,) float32 chunks=(365,)
 * ```
 */
export async function* treeLines(
  group: ZarrGroup,
  options: TreeOptions = {},
): AsyncGenerator<string> {
  yield groupTitle(group);
  if (options.level === undefined || options.level > 0) yield* childLines(group, "", 1, options);
}

/** A group's tree as one text (lines joined by `\n`, see {@link treeLines}). */
export async function renderTree(group: ZarrGroup, options: TreeOptions = {}): Promise<string> {
  const lines: string[] = [];
  for await (const line of treeLines(group, options)) lines.push(line);
  return lines.join("\n");
}
