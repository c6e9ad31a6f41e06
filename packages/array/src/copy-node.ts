import type { JsonObject } from "@z/metadata";
import { joinKey, NotFoundError, normalizePath, type StoreLike } from "@z/store-core";
import { ZarrArray } from "./array.js";
import type { ArrayOptions } from "./array-metadata-builder.js";
import type { Progress } from "./chunk-access.js";
import { consolidateMetadata } from "./consolidate-metadata.js";
import { type CopiedElements, copyArrayElements } from "./copy-elements.js";
import { ContainsArrayError, ContainsGroupError } from "./errors.js";
import type { ZarrGroup } from "./group.js";
import { readNodeMetadata } from "./metadata-io.js";
import { optionsLike } from "./options-like.js";
import { enterStore } from "./store-logging-scope.js";
import { readConsolidatedHolder } from "./update-consolidated.js";
import { type NodeInput, writeNodes } from "./write-nodes.js";

/** Options of {@link copyNode}. */
export interface CopyNodeOptions {
  /** Where the copy goes in the destination store (default: the source's own path). */
  path?: string;
  /** The Zarr format of the copy (default: each node's own). */
  zarrFormat?: 2 | 3;
  /**
   * The creation options of each array's copy: recompression, rechunking, ... Called for
   * every array before anything is written, so an option that cannot work stops the copy
   * with nothing written. Attributes it gives win over {@link CopyNodeOptions.attributes}; the
   * format, when it gives none, is the copy's.
   * Default: the source's metadata as it is when the format stays; otherwise its layout as
   * {@link zerosLike} takes it into the other format (see {@link LikeOptions}).
   */
  arrayOptions?: (source: ZarrArray, zarrFormat: 2 | 3) => ArrayOptions | Promise<ArrayOptions>;
  /** The attributes of each node's copy (default: the source's). */
  attributes?: (source: ZarrArray | ZarrGroup) => JsonObject;
  /**
   * How many levels of members to copy below a group (default all). `1` copies its direct
   * members, with subgroups empty (h5py's `shallow`).
   */
  depth?: number;
  /** Replace nodes that exist where the copies go (their subtrees are deleted first). */
  overwrite?: boolean;
  /**
   * Groups whose source holds consolidated metadata of its own get it in the copy too,
   * written once their subtree is copied (default true).
   */
  consolidated?: boolean;
  /** Chunks (or shards) of one array copied at once (default 8). */
  concurrency?: number;
  /** Abort the copy. */
  signal?: AbortSignal;
  /** Called when an array's elements start to be copied (after every node is created). */
  onArrayStart?: (source: ZarrArray, target: ZarrArray) => void;
  /** Called after each chunk (or shard) of an array's copy. */
  onProgress?: (source: ZarrArray, progress: Progress) => void;
  /** Called when an array's elements are copied. */
  onArrayEnd?: (source: ZarrArray, copied: CopiedElements) => void;
}

/** What {@link copyNode} wrote. */
export interface CopiedNodes {
  /** The arrays copied, at the destination, in the order they were met. */
  arrays: ZarrArray[];
  /** The destination paths of the groups copied. */
  groups: string[];
  /** The destination paths of the groups given consolidated metadata, deepest first. */
  consolidated: string[];
}

/**
 * A copy worked out and checked, nothing written yet (see {@link planNodeCopy}): lets a caller
 * refuse a copy before it opens or creates the destination.
 */
export class NodeCopyPlan {
  constructor(
    /** The node copied. */
    readonly source: ZarrArray | ZarrGroup,
    /** Where its copy goes. */
    readonly path: string,
  ) {}
  /** Every node to write, by destination path, in the order met. */
  readonly nodes: [string, NodeInput][] = [];
  /** The source arrays and their destination paths. */
  readonly arrays: [ZarrArray, string][] = [];
  /** The destination paths of the groups. */
  readonly groups: string[] = [];
  /** The destination paths of the groups to give consolidated metadata, deepest first. */
  readonly consolidated: string[] = [];
}

/**
 * Overwriting would delete the source before it is read when the copy lands on it or on a
 * group above it, in the same store.
 * @throws ContainsArrayError / ContainsGroupError naming the node
 */
function refuseSelfOverwrite(plan: NodeCopyPlan): void {
  const from = plan.source.path;
  const to = plan.path;
  if (to !== from && to !== "" && !from.startsWith(`${to}/`)) return;
  const hint = `a copy of /${from} cannot replace it`;
  throw to === from && plan.source instanceof ZarrArray
    ? new ContainsArrayError(to, hint)
    : new ContainsGroupError(to, hint);
}

/** The source path's place under the destination root. */
function destinationOf(path: string, sourceRoot: string, destinationRoot: string): string {
  const rel =
    path === sourceRoot ? "" : sourceRoot === "" ? path : path.slice(sourceRoot.length + 1);
  return joinKey(destinationRoot, rel);
}

async function arrayInput(
  source: ZarrArray,
  format: 2 | 3,
  attributes: JsonObject,
  options: CopyNodeOptions,
): Promise<NodeInput> {
  if (options.arrayOptions)
    return {
      kind: "array",
      attributes,
      zarrFormat: format,
      ...(await options.arrayOptions(source, format)),
    };
  // The same format: the metadata as it is (extension fields and key encodings included).
  if (format === source.zarrFormat)
    return { kind: "array", metadata: { ...source.metadata, attributes } };
  return { kind: "array", attributes, ...optionsLike(source, { zarrFormat: format }) };
}

/**
 * Walks the source and works out every node a {@link copyNode} with these options writes,
 * checking the options against every array (`arrayOptions` is called here), without writing.
 * @throws what `arrayOptions` throws; the read errors of the source
 */
export async function planNodeCopy(
  root: ZarrArray | ZarrGroup,
  options: CopyNodeOptions = {},
): Promise<NodeCopyPlan> {
  const destinationRoot = options.path === undefined ? root.path : normalizePath(options.path);
  const plan = new NodeCopyPlan(root, destinationRoot);
  const maxDepth = options.depth ?? Number.POSITIVE_INFINITY;
  const attributesOf = options.attributes ?? ((node: ZarrArray | ZarrGroup) => node.attrs);
  const visit = async (node: ZarrArray | ZarrGroup, depth: number): Promise<void> => {
    const path = destinationOf(node.path, root.path, destinationRoot);
    const format = options.zarrFormat ?? node.zarrFormat;
    const attributes = attributesOf(node);
    if (node instanceof ZarrArray) {
      plan.nodes.push([path, await arrayInput(node, format, attributes, options)]);
      plan.arrays.push([node, path]);
      return;
    }
    plan.nodes.push([path, { kind: "group", zarrFormat: format, attributes }]);
    plan.groups.push(path);
    if (depth >= maxDepth) return;
    for (const [, child] of await node.members({ signal: options.signal }))
      await visit(child, depth + 1);
    // After the children, so deeper groups come first.
    if (options.consolidated !== false) {
      const holder = await readConsolidatedHolder(node.store, node.path, {
        zarrFormat: node.zarrFormat,
        signal: options.signal,
      });
      if (holder) plan.consolidated.push(path);
    }
  };
  await visit(root, 0);
  return plan;
}

/**
 * Copies an array or a whole hierarchy (attributes included) into a store, optionally into
 * the other Zarr format, with other codecs or other chunks (see
 * {@link CopyNodeOptions.arrayOptions}). In order:
 * 1. the source is walked and every copy's metadata worked out and checked (codecs known,
 *    options valid), so a copy that cannot work writes nothing;
 * 2. every node is created (missing parent groups too; consolidated metadata of ancestors
 *    at the destination is updated, as node creation does);
 * 3. each array's elements are copied one destination chunk (or shard) per task: stored
 *    chunks as bytes when the layout stays, re-encoded otherwise; sharded and rectilinear
 *    arrays included;
 * 4. groups whose source held consolidated metadata get it written for the copy.
 *
 * `source` may be a plan made by {@link planNodeCopy} with the same options.
 *
 * @example
 * ```ts
 * const source = await openGroup("data.zarr");
 * await copyNode(source, new Map(), { zarrFormat: 2 }); // the whole hierarchy, as v2
 * ```
 * @throws ContainsArrayError / ContainsGroupError when a node exists where a copy goes
 *   (without `overwrite`); what `arrayOptions` throws; the metadata, codec and store errors of
 *   both sides
 */
export async function copyNode(
  source: ZarrArray | ZarrGroup | NodeCopyPlan,
  destination: StoreLike | string,
  options: CopyNodeOptions = {},
): Promise<CopiedNodes> {
  const plan = source instanceof NodeCopyPlan ? source : await planNodeCopy(source, options);
  const store = await enterStore(destination);
  const { signal } = options;
  if (options.overwrite && store === plan.source.store) refuseSelfOverwrite(plan);
  await writeNodes(store, plan.nodes, { overwrite: options.overwrite, signal });
  const arrays: ZarrArray[] = [];
  for (const [array, path] of plan.arrays) {
    // Written through the metadata as readers will parse it, so what the writer leaves out as
    // the fill value is what readers fill in (a v2 object array's null fill value, say).
    const node = await readNodeMetadata(store, path, { kind: "array", signal });
    if (node?.kind !== "array") throw new NotFoundError(`/${path}`, "array", "the copy is gone");
    const target = new ZarrArray(store, path, node.metadata);
    options.onArrayStart?.(array, target);
    const copied = await copyArrayElements(array, target, {
      concurrency: options.concurrency,
      signal,
      onProgress: options.onProgress && ((progress) => options.onProgress?.(array, progress)),
    });
    options.onArrayEnd?.(array, copied);
    arrays.push(target);
  }
  for (const path of plan.consolidated) await consolidateMetadata(store, { path, signal });
  return {
    arrays,
    groups: plan.groups,
    consolidated: plan.consolidated,
  };
}
