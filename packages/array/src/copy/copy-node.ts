import { locateError } from "@z/errors";
import type { ArrayMetadata, JsonObject } from "@z/metadata";
import { joinKey, normalizePath, type StoreLike } from "@z/store-core";
import { consolidateMetadata } from "../consolidated/consolidate-metadata.js";
import { readConsolidatedHolder } from "../consolidated/update-consolidated.js";
import type { ArrayOptions } from "../create/array-metadata-builder.js";
import { ContainsArrayError, ContainsGroupError } from "../errors.js";
import type { Progress } from "../io/chunk-access.js";
import { enterStore } from "../logging/store-logging-scope.js";
import { ZarrArray } from "../nodes/array.js";
import type { ZarrGroup } from "../nodes/group.js";
import { UnreadableNode } from "../nodes/unreadable-node.js";
import { commitNodes, type NodeInput, prepareNodes, removeReplaced } from "../write/write-nodes.js";
import { checkedCopyMetadata } from "./copy-check.js";
import {
  type CopiedElements,
  type CopyElementsOptions,
  copyArrayElements,
} from "./copy-elements.js";
import { WriteJournal } from "./copy-journal.js";
import { copyArrayOptions } from "./copy-options.js";

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
   * Default: the source's metadata as it is when the format stays; otherwise
   * {@link copyArrayOptions} into the other format (the defaults of `zarr copy`: codecs under
   * their names in that format, v2 object arrays as v3 strings, bytes or objects, ...).
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
  /**
   * How each array's elements are copied: target chunks (shards) per task along each axis
   * and tasks at once (see {@link CopyElementsOptions.regionChunks}), for a copy that must
   * keep its memory within a budget whatever the chunks. Default: one chunk per task,
   * {@link CopyNodeOptions.concurrency} at once.
   */
  copyRegions?: (
    source: ZarrArray,
    target: ZarrArray,
  ) => Pick<CopyElementsOptions, "regionChunks" | "concurrency">;
  /** Abort the copy. */
  signal?: AbortSignal;
  /** Called when an array's elements start to be copied (before any node's metadata is written). */
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
  path: string,
  options: CopyNodeOptions,
): Promise<NodeInput> {
  const attributes = options.attributes?.(source);
  if (options.arrayOptions)
    return {
      kind: "array",
      attributes: attributes ?? source.attrs,
      zarrFormat: format,
      ...(await options.arrayOptions(source, format)),
    };
  // The same format: the metadata as it is (extension fields and key encodings included).
  if (format === source.zarrFormat)
    return {
      kind: "array",
      metadata: { ...source.metadata, attributes: attributes ?? source.attrs },
    };
  let converted: ArrayOptions;
  try {
    converted = copyArrayOptions(source, { zarrFormat: format });
  } catch (error) {
    throw copyFailure(error, source, path);
  }
  return { kind: "array", ...converted, attributes: attributes ?? converted.attributes };
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
  const visit = async (node: ZarrArray | ZarrGroup, depth: number): Promise<void> => {
    const path = destinationOf(node.path, root.path, destinationRoot);
    const format = options.zarrFormat ?? node.zarrFormat;
    if (node instanceof ZarrArray) {
      plan.nodes.push([path, await arrayInput(node, format, path, options)]);
      plan.arrays.push([node, path]);
      return;
    }
    const attributes = options.attributes?.(node) ?? node.attrs;
    plan.nodes.push([path, { kind: "group", zarrFormat: format, attributes }]);
    plan.groups.push(path);
    if (depth >= maxDepth) return;
    for (const [, child] of await node.members({ signal: options.signal })) {
      // A member that cannot be opened cannot be copied: the copy stops before writing.
      if (child instanceof UnreadableNode) throw child.error;
      await visit(child, depth + 1);
    }
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

/** The holders of consolidated metadata above `path` among `holders`. */
function holdersAbove(path: string, holders: string[]): string[] {
  return holders.filter((h) => h !== path && (h === "" || path.startsWith(`${h}/`)));
}

/** Names the node whose copy failed in an error that does not say (a store's write error). */
function copyFailure(error: unknown, source: ZarrArray, path: string): unknown {
  const where = path === source.path ? `copy of /${path}` : `copy of /${source.path} to /${path}`;
  return locateError(error, where, { path: source.path });
}

/**
 * Copies an array or a whole hierarchy (attributes included) into a store, optionally into
 * the other Zarr format, with other codecs or other chunks (see
 * {@link CopyNodeOptions.arrayOptions}). All or nothing: a copy that fails leaves the
 * destination as it was. In order:
 * 1. the source is walked and every copy's metadata worked out and checked (codecs known,
 *    options valid, nodes in the way refused), so a copy that cannot work writes nothing;
 * 2. each array's elements are copied one destination chunk (or shard) per task: stored
 *    chunks as bytes when the layout stays, re-encoded otherwise; sharded and rectilinear
 *    arrays included;
 * 3. every node's metadata is written (missing parent groups too; consolidated metadata of
 *    ancestors at the destination is updated, as node creation does), so no reader sees a
 *    node before its chunks are all there;
 * 4. groups whose source held consolidated metadata get it written for the copy.
 *
 * When a step after the first fails (a corrupt source chunk, a store error, an abort), every
 * key the copy wrote is deleted and every key it replaced is put back, and the error, naming
 * the array whose copy failed (`copy of /b: ...`), is thrown: a rerun once the cause is fixed
 * finds the destination as before. The one exception is `overwrite`: the nodes it replaces are
 * deleted before the copy writes, and a failed copy does not bring them back.
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
 *   both sides; IncompleteRollbackError, with the copy's error as its cause, when the
 *   destination fails again while the copy takes back what it wrote
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
  const prepared = await prepareNodes(store, plan.nodes, {
    overwrite: options.overwrite,
    signal,
  });
  const built = new Map(prepared.written);
  const targets: [ZarrArray, string, ArrayMetadata][] = [];
  for (const [array, path] of plan.arrays) {
    const node = built.get(path) as { metadata: ArrayMetadata };
    // Written through the metadata as readers will parse it, so what the writer leaves out as
    // the fill value is what readers fill in (a v2 object array's null fill value, say); its
    // encoders are tried first, so one that cannot write stops the copy before it begins.
    const metadata = await checkedCopyMetadata(array, node.metadata, path).catch(
      (error: unknown) => {
        throw copyFailure(error, array, path);
      },
    );
    targets.push([array, path, metadata]);
  }
  const journal = await WriteJournal.open(prepared.store, plan.path, signal);
  try {
    if (options.overwrite) await removeReplaced(prepared, journal.store);
    for (const [array, path, metadata] of targets) {
      const target = new ZarrArray(journal.store, path, metadata);
      options.onArrayStart?.(array, target);
      const copied = await copyArrayElements(array, target, {
        concurrency: options.concurrency,
        ...options.copyRegions?.(array, target),
        signal,
        onProgress: options.onProgress && ((progress) => options.onProgress?.(array, progress)),
      }).catch((error: unknown) => {
        throw signal?.aborted ? error : copyFailure(error, array, path);
      });
      options.onArrayEnd?.(array, copied);
    }
    await commitNodes(prepared, journal.store);
    for (const path of plan.consolidated)
      await consolidateMetadata(journal.store, { path, signal });
  } catch (error) {
    await journal.rollback(error, options.concurrency);
    throw error;
  }
  return {
    arrays: targets.map(
      ([, path, metadata]) =>
        new ZarrArray(store, path, metadata, {
          consolidatedHolders: holdersAbove(path, prepared.holders),
        }),
    ),
    groups: plan.groups,
    consolidated: plan.consolidated,
  };
}
