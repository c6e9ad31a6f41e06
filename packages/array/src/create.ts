import {
  type ArrayMetadata,
  checkAttributes,
  formatValue,
  type GroupMetadata,
  type JsonObject,
  MetadataError,
  validateNodeName,
} from "@z/metadata";
import {
  isWritable,
  joinKey,
  normalizePath,
  notWritableError,
  prefixOf,
  type Readable,
  type StoreLike,
  type Writable,
} from "@z/store-core";
import { ZarrArray } from "./array.js";
import { DEFAULT_CONCURRENCY, forEachConcurrent } from "./concurrency.js";
import { consolidatedDocuments } from "./consolidated.js";
import type { ContainerOf } from "./container-types.js";
import { type ArrayOptions, buildArrayMetadata } from "./create-metadata.js";
import { ContainsArrayError, ContainsGroupError } from "./errors.js";
import { createExclusive, isNodeDocument } from "./exclusive-create.js";
import { Group } from "./group.js";
import { afterLoading } from "./load-extensions.js";
import {
  type NodeMetadata,
  nodeMetadataDocuments,
  readNodeMetadata,
  writeManyDocuments,
} from "./metadata-io.js";
import { logNode, nodeDetails } from "./node-logging.js";
import { checkOptionsObject, isPlainObject } from "./option-checks.js";
import { enterStore } from "./store-logging.js";

/** Options shared by node creation. */
export interface CreateNodeOptions {
  /** Where to create the node (default the root). Missing parent groups are created. */
  path?: string;
  /** Replace a node that exists there (its whole subtree is deleted first). */
  overwrite?: boolean;
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

/** One node of {@link createHierarchy}: an array (with `createArray`'s options) or a group. */
export type NodeSpec =
  | ({ kind: "array" } & ArrayOptions)
  | { kind: "group"; zarrFormat?: 2 | 3; attributes?: JsonObject };

/** Options of {@link createHierarchy}. */
export interface HierarchyOptions {
  /** Replace nodes that exist at the given paths (their subtrees are deleted first). */
  overwrite?: boolean;
  /** The format of nodes that do not say (default 3). */
  zarrFormat?: 2 | 3;
  /** Metadata documents read or written at once (default 8). */
  concurrency?: number;
  /** Abort the reads and writes. */
  signal?: AbortSignal;
}

/** What {@link createNodes} wrote. */
export interface CreatedNodes {
  /** Every node written (the requested ones and the missing parent groups), by path. */
  nodes: Map<string, ZarrArray | Group>;
  /** The metadata written, sorted by path. */
  written: [string, NodeMetadata][];
  /** The requested paths. */
  requested: string[];
}

interface Planned {
  node: NodeMetadata;
  object: ZarrArray | Group;
}

function writable(store: Readable, path: string): Readable & Writable {
  if (!isWritable(store)) throw notWritableError(store, `/${path}`, "create a node at");
  return store;
}

/** The proper ancestors of a path, root first (`"a/b/c"` -> `""`, `"a"`, `"a/b"`). */
function ancestors(path: string): string[] {
  if (path === "") return [];
  const segments = path.split("/");
  return segments.map((_, i) => segments.slice(0, i).join("/"));
}

/** Whether `path` is strictly below `root`. */
function isBelow(path: string, root: string): boolean {
  return path !== root && (root === "" || path.startsWith(`${root}/`));
}

function relative(path: string, root: string): string {
  return root === "" ? path : path.slice(root.length + 1);
}

/** Validates one node spec and builds its metadata and object, without any I/O. */
function planNode(store: Readable, path: string, spec: NodeSpec, defaultFormat: 2 | 3): Planned {
  if (path !== "") path.split("/").forEach(validateNodeName);
  if (!isPlainObject(spec as unknown))
    throw new MetadataError(`/${path}: a node spec must be an object, got ${formatValue(spec)}`);
  const zarrFormat = spec.zarrFormat ?? defaultFormat;
  if (zarrFormat !== 2 && zarrFormat !== 3)
    throw new MetadataError(`/${path}: zarrFormat must be 2 or 3, got ${formatValue(zarrFormat)}`);
  if (spec.kind === "array") {
    let metadata: ArrayMetadata;
    try {
      metadata = buildArrayMetadata({ ...spec, zarrFormat });
    } catch (error) {
      if (error instanceof MetadataError) error.message = `/${path}: ${error.message}`;
      throw error;
    }
    // Building the array object builds its codec pipeline, so unknown codecs fail here,
    // before any write.
    return { node: { kind: "array", metadata }, object: new ZarrArray(store, path, metadata) };
  }
  if (spec.kind !== "group") {
    throw new MetadataError(
      `/${path}: a node's "kind" must be "array" or "group", got ${formatValue((spec as { kind: unknown }).kind)}`,
    );
  }
  const metadata: GroupMetadata = {
    zarrFormat,
    attributes: checkAttributes(spec.attributes ?? {}, `/${path} attributes`),
    extraFields: {},
  };
  return { node: { kind: "group", metadata }, object: new Group(store, path, metadata) };
}

function mixedFormats(
  path: string,
  format: 2 | 3,
  parent: string,
  parentFormat: 2 | 3,
): MetadataError {
  return new MetadataError(
    `Cannot create the v${format} node /${path} under the v${parentFormat} group /${parent}: ` +
      "a group only lists children of its own format",
  );
}

/**
 * Creates many nodes in one go, the shared path of `createArray`, `createGroup` and
 * `createHierarchy`:
 * 1. every spec is validated (metadata, codecs, node names, no node inside an array, no
 *    requested child of another format than its requested parent) before any I/O;
 * 2. what is at the requested paths and their ancestors is read (bounded concurrency);
 *    existing nodes are refused unless `overwrite`, existing arrays on the way always;
 * 3. replaced subtrees are deleted, then every metadata document (requested nodes and missing
 *    parent groups) is written, a bounded number at a time;
 * 4. ancestors holding consolidated metadata get the new nodes added to it (and replaced
 *    subtrees removed), so a consolidated hierarchy stays complete for nodes created here.
 */
export async function createNodes(
  store: StoreLike | string,
  specs: Iterable<readonly [string, NodeSpec]>,
  options: HierarchyOptions = {},
): Promise<CreatedNodes> {
  const s = await enterStore(store);
  const list = [...specs].map(([path, spec]) => [normalizePath(path), spec] as const);
  const w = writable(s, list[0]?.[0] ?? "");
  const { signal, overwrite } = options;
  const concurrency = options.concurrency ?? DEFAULT_CONCURRENCY;
  const planned = new Map<string, Planned>();
  for (const [path, spec] of list) {
    if (planned.has(path)) throw new MetadataError(`/${path} is given twice`);
    planned.set(path, await afterLoading(() => planNode(s, path, spec, options.zarrFormat ?? 3)));
  }
  const implied = new Map<string, 2 | 3>();
  for (const [path, { node }] of planned) {
    const format = node.metadata.zarrFormat;
    for (const parent of ancestors(path)) {
      const parentPlan = planned.get(parent);
      if (parentPlan?.node.kind === "array")
        throw new ContainsArrayError(parent, `cannot create /${path} inside an array`);
      if (parentPlan && parentPlan.node.metadata.zarrFormat !== format) {
        throw mixedFormats(path, format, parent, parentPlan.node.metadata.zarrFormat);
      }
      // A missing parent takes the format of its first child (as creating them one by one would).
      if (!parentPlan && !implied.has(parent)) implied.set(parent, format);
    }
  }

  const existing = new Map<string, NodeMetadata | undefined>();
  await forEachConcurrent(
    [...planned.keys(), ...implied.keys()],
    concurrency,
    async (path) => {
      // Parents are read with their consolidated metadata, which step 4 updates.
      existing.set(
        path,
        await readNodeMetadata(s, path, {
          consolidated: planned.has(path) ? false : undefined,
          signal,
        }),
      );
    },
    signal,
  );
  const replaced = [...planned.keys()].filter((path) => existing.get(path) !== undefined).sort();
  for (const path of replaced) {
    if (overwrite) continue;
    const hint = "pass overwrite: true to replace it";
    throw existing.get(path)?.kind === "array"
      ? new ContainsArrayError(path, hint)
      : new ContainsGroupError(path, hint);
  }
  const deleted = (path: string) => replaced.some((r) => path === r || isBelow(path, r));
  const missing: string[] = [];
  for (const parent of implied.keys()) {
    const found = deleted(parent) ? undefined : existing.get(parent);
    if (found === undefined) missing.push(parent);
    else if (found.kind === "array") {
      const child = [...planned.keys()].find((p) => isBelow(p, parent));
      throw new ContainsArrayError(parent, `cannot create /${child} inside an array`);
    }
  }

  const nodes = new Map<string, ZarrArray | Group>();
  const written: [string, NodeMetadata][] = [];
  for (const path of missing) {
    const metadata: GroupMetadata = {
      zarrFormat: implied.get(path) as 2 | 3,
      attributes: {},
      extraFields: {},
    };
    written.push([path, { kind: "group", metadata }]);
    nodes.set(path, new Group(s, path, metadata));
  }
  for (const [path, { node, object }] of planned) {
    written.push([path, node]);
    nodes.set(path, object);
  }
  written.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));

  const topmost = replaced.filter((path) => !replaced.some((r) => isBelow(path, r)));
  await forEachConcurrent(
    topmost,
    concurrency,
    (path) => w.deletePrefix(prefixOf(path), { signal }),
    signal,
  );
  const documents = written.flatMap(([path, node]) =>
    nodeMetadataDocuments(node).map(
      ([key, bytes]) => [joinKey(path, key), bytes] as [string, Uint8Array],
    ),
  );
  // Without overwrite, each requested node's defining document is written first and only if
  // absent, so of two creators racing for one path exactly one wins (the other is refused as
  // if it had found the node when it looked).
  const claims = overwrite
    ? []
    : documents.filter(([key]) => isNodeDocument(key) && planned.has(nodePathOf(key)));
  await forEachConcurrent(
    claims,
    concurrency,
    async ([key, bytes]) => {
      if (await createExclusive(w, key, bytes, signal)) return;
      const path = nodePathOf(key);
      const found = await readNodeMetadata(s, path, { consolidated: false, signal });
      const hint = "another writer created it just now";
      throw found?.kind === "array"
        ? new ContainsArrayError(path, hint)
        : new ContainsGroupError(path, hint);
    },
    signal,
  );
  await writeManyDocuments(
    w,
    documents.filter((document) => !claims.includes(document)),
    { signal, concurrency },
  );
  // Consolidated metadata goes last, so it never lists a node whose documents are not written.
  await writeManyDocuments(w, consolidatedUpdates(existing, planned, deleted, replaced, written), {
    signal,
    concurrency,
  });
  for (const [path, node] of written) logNode("created", node.kind, path, () => nodeDetails(node));
  return { nodes, written, requested: [...planned.keys()] };
}

function consolidatedUpdates(
  existing: Map<string, NodeMetadata | undefined>,
  planned: Map<string, Planned>,
  deleted: (path: string) => boolean,
  replaced: string[],
  written: [string, NodeMetadata][],
): [string, Uint8Array][] {
  const updates: [string, Uint8Array][] = [];
  for (const [path, found] of existing) {
    if (found?.kind !== "group" || !found.consolidated || planned.has(path) || deleted(path))
      continue;
    const remove = replaced.filter((p) => isBelow(p, path)).map((p) => relative(p, path));
    const add = written
      .filter(([p]) => isBelow(p, path))
      .map(([p, node]) => [relative(p, path), node] as const);
    const updated = found.consolidated.withChanges({ remove, add });
    for (const [key, bytes] of consolidatedDocuments(found.metadata, updated))
      updates.push([joinKey(path, key), bytes]);
  }
  return updates;
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
 * @throws ContainsArrayError / ContainsGroupError when a node exists (without `overwrite`),
 *   MetadataError, UnknownCodecError, UnknownDataTypeError, ReadOnlyError
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
  const path = normalizePath(options.path);
  const created = await createNodes(store, [[path, { ...options, kind: "array" }]], options);
  return created.nodes.get(path) as ZarrArray;
}

/**
 * Creates a group (and any missing parent groups).
 * @throws ContainsArrayError / ContainsGroupError when a node exists (without `overwrite`)
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
): Promise<Group> {
  checkOptionsObject(options, "createGroup");
  const path = normalizePath(options.path);
  const spec: NodeSpec = {
    kind: "group",
    zarrFormat: options.zarrFormat,
    attributes: options.attributes,
  };
  const created = await createNodes(store, [[path, spec]], options);
  return created.nodes.get(path) as Group;
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
): Promise<Map<string, ZarrArray | Group>> {
  const entries = nodes instanceof Map ? [...nodes] : Object.entries(nodes);
  return (await createNodes(store, entries, options)).nodes;
}

/** The node path of a metadata document's key (`a/b/zarr.json` -> `a/b`). */
function nodePathOf(key: string): string {
  const slash = key.lastIndexOf("/");
  return slash < 0 ? "" : key.slice(0, slash);
}
