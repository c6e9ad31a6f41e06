import type { JsonObject } from "@z/metadata";
import { normalizePath, type Readable, type StoreLike } from "@z/store-core";
import type { ArrayOptions } from "../create/array-metadata-builder.js";
import type { ContainerOf } from "../create/container-types.js";
import { checkOptionsObject } from "../create/option-checks.js";
import { enterStore } from "../logging/store-logging-scope.js";
import type { ZarrArray } from "../nodes/array.js";
import { nodeFromMetadata, type ZarrGroup } from "../nodes/group.js";
import type { NodeMetadata } from "../nodes/node-documents.js";
import { type AccessMode, storeForMode } from "../nodes/open-mode.js";
import { prepareModeTarget } from "./mode-targets.js";
import { type HierarchyOptions, type NodeSpec, writeNodes } from "./write-nodes.js";

// The public ways to create nodes: createArray, createGroup and createHierarchy, over
// write-nodes.ts (which writes the metadata) and nodeFromMetadata (which builds the objects).

/** Options shared by node creation. */
export interface CreateNodeOptions {
  /** Where to create the node (default the root). Missing parent groups are created. */
  path?: string;
  /** Replace a node that exists there (its whole subtree is deleted first). */
  overwrite?: boolean;
  /**
   * zarr-python's `mode` (see {@link AccessMode}): `"w"` replaces whatever is at the path
   * (everything stored under it is deleted), `"w-"` refuses to create where anything is stored
   * (a node or other keys), `"a"` and `"r+"` (the default) refuse an existing node unless
   * `overwrite`, `"r"` refuses with `ReadOnlyError`.
   */
  mode?: AccessMode;
  /** Abort the writes. */
  signal?: AbortSignal;
}

/** Options of `createGroup`. */
export interface GroupOptions extends CreateNodeOptions {
  /** 2 or 3 (default 3). */
  zarrFormat?: 2 | 3;
  /** User attributes. */
  attributes?: JsonObject;
}

/** What {@link createNodes} wrote. */
export interface CreatedNodes {
  /** Every node written (the requested ones and the missing parent groups), by path. */
  nodes: Map<string, ZarrArray | ZarrGroup>;
  /** The metadata written, sorted by path. */
  written: [string, NodeMetadata][];
  /** The requested paths. */
  requested: string[];
}

/**
 * Creates many nodes in one go from `[path, spec]` pairs (as {@link createHierarchy} does from a
 * record) and returns them opened: every node written, requested or added as a missing parent
 * group.
 */
export async function createNodes(
  store: StoreLike | string,
  specs: Iterable<readonly [string, NodeSpec]>,
  options: HierarchyOptions = {},
): Promise<CreatedNodes> {
  return createNodesIn(await enterStore(store), specs, options);
}

/** {@link createNodes} in a store already entered (see `enterStore`). */
async function createNodesIn(
  s: Readable,
  specs: Iterable<readonly [string, NodeSpec]>,
  options: HierarchyOptions,
): Promise<CreatedNodes> {
  const { written, requested, arrays } = await writeNodes(s, specs, options);
  const nodes = new Map<string, ZarrArray | ZarrGroup>();
  for (const [path, node] of written)
    nodes.set(path, arrays.get(path) ?? (await nodeFromMetadata(s, path, node)));
  return { nodes, written, requested };
}

/**
 * Creates an array: validates the options (every codec must be known) before writing
 * anything, creates missing parent groups, writes the metadata. An ancestor group holding
 * consolidated metadata gets the new array added to it.
 *
 * @example
 * ```ts
 * const arr = await createArray(new Map(), { shape: [512, 512], chunks: [64, 64], dtype: "uint16" });
 * ```
 * @throws ContainsArrayError / ContainsGroupError when a node exists (without `overwrite`;
 *   with mode `"w-"`, NotEmptyError when other keys are stored there), MetadataError,
 *   UnknownCodecError, UnknownDataTypeError, ReadOnlyError
 * @category Open and create
 */
export async function createArray<D extends string>(
  store: StoreLike | string,
  options: ArrayOptions & CreateNodeOptions & { dtype: D },
): Promise<ZarrArray<ContainerOf<D>>>;
export async function createArray(
  store: StoreLike | string,
  options: ArrayOptions & CreateNodeOptions,
): Promise<ZarrArray>;
export async function createArray(
  store: StoreLike | string,
  options: ArrayOptions & CreateNodeOptions,
): Promise<ZarrArray> {
  checkOptionsObject(options, "createArray");
  const { mode, overwrite, signal, ...spec } = options;
  const path = normalizePath(options.path);
  const s = await enterStore(store);
  return (await createNodeWithMode(s, path, { ...spec, kind: "array" }, options)) as ZarrArray;
}

/**
 * Creates one node as `mode` says (see {@link CreateNodeOptions.mode}) in a store already
 * entered (see `enterStore`): the path is cleared or checked first, then the node is written.
 */
async function createNodeWithMode(
  entered: Readable,
  path: string,
  spec: NodeSpec,
  options: CreateNodeOptions,
): Promise<ZarrArray | ZarrGroup> {
  const s = storeForMode(entered, options.mode, path);
  const overwrite = await prepareModeTarget(s, path, options.mode, options);
  const created = await createNodesIn(s, [[path, spec]], { overwrite, signal: options.signal });
  return created.nodes.get(path) as ZarrArray | ZarrGroup;
}

/**
 * Creates a group (and any missing parent groups).
 * @throws ContainsArrayError / ContainsGroupError when a node exists (without `overwrite`);
 *   with mode `"w-"`, NotEmptyError when other keys are stored there; ReadOnlyError
 * @example
 * ```ts
 * const root = await createGroup("data.zarr", { attributes: { title: "survey" } });
 * const raw = await root.createGroup("raw");
 * ```
 * @category Open and create
 */
export async function createGroup(
  store: StoreLike | string,
  options: GroupOptions = {},
): Promise<ZarrGroup> {
  checkOptionsObject(options, "createGroup");
  const path = normalizePath(options.path);
  const spec: NodeSpec = {
    kind: "group",
    zarrFormat: options.zarrFormat,
    attributes: options.attributes,
  };
  return (await createNodeWithMode(await enterStore(store), path, spec, options)) as ZarrGroup;
}

/**
 * Creates a whole hierarchy in one call: every node is validated first (nothing is written if
 * one is invalid), missing parent groups are added, existing nodes are refused (unless
 * `overwrite`), then all the metadata documents are written concurrently (bounded).
 *
 * @example
 * ```ts
 * const nodes = await createHierarchy(store, {
 *   "": { kind: "group", attributes: { title: "survey" } },
 *   "raw/counts": { kind: "array", shape: [1000], chunks: [100], dtype: "uint32" },
 *   "raw/mask": { kind: "array", shape: [1000], chunks: [100], dtype: "bool" },
 * });
 * nodes.get("raw"); // the parent group, created too
 * ```
 * @returns every node written (requested and added parents) by path
 * @throws ContainsArrayError / ContainsGroupError, MetadataError (invalid specs, mixed
 *   formats), UnknownCodecError, UnknownDataTypeError, ReadOnlyError
 * @category Open and create
 */
export async function createHierarchy(
  store: StoreLike | string,
  nodes: Record<string, NodeSpec> | Map<string, NodeSpec>,
  options: HierarchyOptions = {},
): Promise<Map<string, ZarrArray | ZarrGroup>> {
  const entries = nodes instanceof Map ? [...nodes] : Object.entries(nodes);
  return (await createNodes(store, entries, options)).nodes;
}
