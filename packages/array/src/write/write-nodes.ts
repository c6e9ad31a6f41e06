import { afterLoading } from "@z/codecs";
import { formatValue, locateError } from "@z/errors";
import {
  type ArrayMetadata,
  checkAttributes,
  type GroupMetadata,
  type JsonObject,
  MetadataError,
  validateNodeName,
} from "@z/metadata";
import {
  isWritable,
  joinKey,
  normalizePath,
  prefixOf,
  type Readable,
  type StoreLike,
  type Writable,
} from "@z/store-core";
import { notWritableError } from "@z/store-core/internal";
import type { ConsolidatedHolder, HierarchyChange } from "../consolidated/update-consolidated.js";
import { type ArrayOptions, buildArrayMetadata } from "../create/array-metadata-builder.js";
import { isPlainObject } from "../create/option-checks.js";
import { ContainsArrayError, ContainsGroupError, MixedFormatsError } from "../errors.js";
import { DEFAULT_CONCURRENCY, forEachConcurrent } from "../io/concurrency.js";
import { loadWritePath } from "../lazy-features.js";
import { logNode, nodeDetails } from "../logging/node-logging.js";
import { enterStore } from "../logging/store-logging-scope.js";
import { ZarrArray } from "../nodes/array.js";
import { readNodeMetadata, writeManyDocuments } from "../nodes/metadata-io.js";
import { type NodeMetadata, nodeMetadataDocuments } from "../nodes/node-documents.js";
import { nodeReadOnlyError, storeIsReadOnly } from "../nodes/open-mode.js";
import { createExclusive, isNodeDocument } from "./exclusive-create.js";
import { bumpAllEpochs } from "./key-lock.js";

// Writing new nodes to a store, at the level of metadata: the shared path under createArray,
// createGroup, createHierarchy, the group methods and node copies. It builds no group
// objects (group.ts and create-nodes.ts do, from what it wrote), so it imports neither.

/** One node of {@link createHierarchy}: an array (with `createArray`'s options) or a group. */
export type NodeSpec =
  | ({ kind: "array" } & ArrayOptions)
  | { kind: "group"; zarrFormat?: 2 | 3; attributes?: JsonObject };

/**
 * A node for {@link writeNodes}: a spec to build the metadata from, or metadata already built
 * (a copy that keeps its source's metadata as it is).
 * @inline
 */
export type NodeInput = NodeSpec | NodeMetadata;

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

/** What {@link writeNodes} wrote. */
export interface WrittenNodes {
  /** The metadata written (the requested nodes and the missing parent groups), sorted by path. */
  written: [string, NodeMetadata][];
  /** The requested paths. */
  requested: string[];
  /** The array objects built while checking the requested arrays (their codecs), by path. */
  arrays: Map<string, ZarrArray>;
  /**
   * The consolidated metadata of the ancestors that list the new nodes, as written (with what
   * other writers changed in it meanwhile), by holder path. Set by {@link commitNodes}.
   */
  holdersWritten?: ReadonlyMap<string, ConsolidatedHolder>;
}

interface Planned {
  node: NodeMetadata;
  array?: ZarrArray;
}

function writable(store: Readable, path: string): Readable & Writable {
  if (!isWritable(store)) throw notWritableError(store, `/${path}`, "create a node at");
  // A read-only view has write methods that refuse: refused here, before any read.
  if (storeIsReadOnly(store)) throw nodeReadOnlyError(store, path, "create a node at");
  return store;
}

/** The proper ancestors of a path, root first (`"a/b/c"` -> `""`, `"a"`, `"a/b"`). */
export function ancestors(path: string): string[] {
  if (path === "") return [];
  const segments = path.split("/");
  return segments.map((_, i) => segments.slice(0, i).join("/"));
}

/** Whether `path` is strictly below `root`. */
function isBelow(path: string, root: string): boolean {
  return path !== root && (root === "" || path.startsWith(`${root}/`));
}

function isNodeMetadata(input: NodeInput): input is NodeMetadata {
  return isPlainObject(input as unknown) && "metadata" in input && isPlainObject(input.metadata);
}

/** Validates one node spec and builds its metadata (and an array's object), without any I/O. */
function planNode(store: Readable, path: string, spec: NodeInput, defaultFormat: 2 | 3): Planned {
  if (path !== "") path.split("/").forEach(validateNodeName);
  if (isNodeMetadata(spec)) {
    // Checked as a spec is: the attributes, and the array object builds the codec pipeline.
    checkAttributes(spec.metadata.attributes, `/${path} attributes`);
    const node = { ...spec, consolidated: undefined } as NodeMetadata;
    if (node.kind === "group") return { node: { kind: "group", metadata: node.metadata } };
    return { node, array: new ZarrArray(store, path, node.metadata) };
  }
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
      throw error instanceof MetadataError ? locateError(error, `/${path}`, { path }) : error;
    }
    // Building the array object builds its codec pipeline, so unknown codecs fail here,
    // before any write.
    return { node: { kind: "array", metadata }, array: new ZarrArray(store, path, metadata) };
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
  return { node: { kind: "group", metadata } };
}

/**
 * New nodes checked against the store and worked out to the last document, nothing written
 * yet (see {@link prepareNodes}): {@link removeReplaced} and {@link commitNodes} write them.
 */
export interface PreparedNodes extends WrittenNodes {
  /** The store written to. */
  readonly store: Readable & Writable;
  /** The topmost requested paths where a node exists (replaced with `overwrite`). */
  readonly replaced: string[];
  /** Every metadata document to write (requested nodes and missing parents), by store key. */
  readonly documents: [string, Uint8Array][];
  /** The documents written only if absent, so of two racing creators one wins. */
  readonly claims: [string, Uint8Array][];
  /**
   * The changes to the consolidated metadata of ancestors that list the new nodes, by holder
   * path, with the holder's format.
   */
  readonly holderChanges: [string, 2 | 3, HierarchyChange][];
  /** The ancestors whose consolidated metadata lists the new nodes. */
  readonly holders: string[];
  /** The options the nodes were prepared with. */
  readonly options: HierarchyOptions;
}

/**
 * The checking half of {@link writeNodes}, which writes nothing: every spec is validated and
 * built, what is at the paths and their ancestors is read and refused when in the way, and
 * every document to write is worked out. Lets a caller write other things (a copy's chunks)
 * before the nodes that make them visible.
 * @throws what {@link writeNodes} throws before it writes
 */
export async function prepareNodes(
  store: StoreLike | string,
  specs: Iterable<readonly [string, NodeInput]>,
  options: HierarchyOptions = {},
): Promise<PreparedNodes> {
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
        throw new MixedFormatsError(path, format, parent, parentPlan.node.metadata.zarrFormat);
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
      // Parents are read with their consolidated metadata, which the commit updates.
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
    } else if (found.metadata.zarrFormat !== implied.get(parent)) {
      // The parent exists in the other format: it would not list the child, whose format's
      // parent documents would be missing (a hierarchy has one format).
      const format = implied.get(parent) as 2 | 3;
      const child = [...planned].find(
        ([p, { node }]) => isBelow(p, parent) && node.metadata.zarrFormat === format,
      )?.[0] as string;
      throw new MixedFormatsError(child, format, parent, found.metadata.zarrFormat);
    }
  }

  const arrays = new Map<string, ZarrArray>();
  const written: [string, NodeMetadata][] = [];
  for (const path of missing) {
    const metadata: GroupMetadata = {
      zarrFormat: implied.get(path) as 2 | 3,
      attributes: {},
      extraFields: {},
    };
    written.push([path, { kind: "group", metadata }]);
  }
  for (const [path, { node, array }] of planned) {
    written.push([path, node]);
    if (array) arrays.set(path, array);
  }
  written.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));

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
  // Consolidated metadata goes last, so it never lists a node whose documents are not written.
  const holderChanges: [string, 2 | 3, HierarchyChange][] = [];
  const holders: string[] = [];
  for (const [path, found] of existing) {
    if (found?.kind !== "group" || !found.consolidated || planned.has(path) || deleted(path))
      continue;
    const change = { removed: replaced, written: written.filter(([p]) => isBelow(p, path)) };
    holderChanges.push([path, found.metadata.zarrFormat, change]);
    holders.push(path);
  }
  // The arrays returned keep those holders current when they are resized or edited.
  for (const [path, array] of arrays) {
    const consolidatedHolders = holders.filter((holder) => isBelow(path, holder));
    if (consolidatedHolders.length > 0)
      arrays.set(path, new ZarrArray(s, path, array.metadata, { consolidatedHolders }));
  }
  return {
    store: w,
    replaced: replaced.filter((path) => !replaced.some((r) => isBelow(path, r))),
    documents,
    claims,
    holderChanges,
    holders,
    options,
    written,
    requested: [...planned.keys()],
    arrays,
  };
}

/** Deletes the subtrees of the nodes {@link prepareNodes} found in the way (with `overwrite`). */
export async function removeReplaced(
  prepared: PreparedNodes,
  store: Writable = prepared.store,
): Promise<void> {
  const { signal } = prepared.options;
  await forEachConcurrent(
    prepared.replaced,
    prepared.options.concurrency ?? DEFAULT_CONCURRENCY,
    (path) => store.deletePrefix(prefixOf(path), { signal }),
    signal,
  );
  if (prepared.replaced.length > 0) bumpAllEpochs();
}

/**
 * The writing half of {@link writeNodes}: writes the documents {@link prepareNodes} worked
 * out, claims first, the ancestors' consolidated metadata last.
 * @param store where to write (default the prepared store; a wrapper of it, say)
 * @throws ContainsArrayError / ContainsGroupError when another writer created a node at a
 *   claimed path since it was prepared; the store's write errors
 */
export async function commitNodes(
  prepared: PreparedNodes,
  store: Readable & Writable = prepared.store,
): Promise<WrittenNodes> {
  const { signal } = prepared.options;
  const concurrency = prepared.options.concurrency ?? DEFAULT_CONCURRENCY;
  const { claims, documents } = prepared;
  await forEachConcurrent(
    claims,
    concurrency,
    async ([key, bytes]) => {
      if (await createExclusive(store, key, bytes, signal)) return;
      const path = nodePathOf(key);
      const found = await readNodeMetadata(store, path, { consolidated: false, signal });
      const hint = "another writer created it just now";
      throw found?.kind === "array"
        ? new ContainsArrayError(path, hint)
        : new ContainsGroupError(path, hint);
    },
    signal,
  );
  await writeManyDocuments(
    store,
    documents.filter((document) => !claims.includes(document)),
    { signal, concurrency },
  );
  const holdersWritten = new Map<string, ConsolidatedHolder>();
  if (prepared.holderChanges.length > 0) {
    // Each holder is read fresh and changed in turn with its other updates, so nodes other
    // writers created or edited meanwhile stay listed.
    const { updateHolder } = await loadWritePath();
    await forEachConcurrent(
      prepared.holderChanges,
      concurrency,
      async ([path, format, change]) => {
        const holder = await updateHolder(store, path, format, change, { signal });
        if (holder) holdersWritten.set(path, holder);
      },
      signal,
    );
  }
  const { written, requested, arrays } = prepared;
  for (const [path, node] of written) logNode("created", node.kind, path, () => nodeDetails(node));
  return { written, requested, arrays, holdersWritten };
}

/**
 * Writes many new nodes in one go, the shared path of `createArray`, `createGroup`,
 * `createHierarchy` and the group methods:
 * 1. every spec is validated (metadata, codecs, node names, no node inside an array, no
 *    requested child of another format than its requested parent) before any I/O;
 * 2. what is at the requested paths and their ancestors is read (bounded concurrency);
 *    existing nodes are refused unless `overwrite`, existing arrays on the way always;
 * 3. replaced subtrees are deleted, then every metadata document (requested nodes and missing
 *    parent groups) is written, a bounded number at a time;
 * 4. ancestors holding consolidated metadata get the new nodes added to it (and replaced
 *    subtrees removed), read fresh and updated in turn with the other updates of it (see
 *    `updateHolder`), so a consolidated hierarchy stays complete for nodes created here, by
 *    this writer and by concurrent ones.
 * Steps 1-2 are {@link prepareNodes}, step 3's deletes {@link removeReplaced}, the writes
 * {@link commitNodes}.
 */
export async function writeNodes(
  store: StoreLike | string,
  specs: Iterable<readonly [string, NodeInput]>,
  options: HierarchyOptions = {},
): Promise<WrittenNodes> {
  const prepared = await prepareNodes(store, specs, options);
  await removeReplaced(prepared);
  return commitNodes(prepared);
}

/** The node path of a metadata document's key (`a/b/zarr.json` -> `a/b`). */
function nodePathOf(key: string): string {
  const slash = key.lastIndexOf("/");
  return slash < 0 ? "" : key.slice(0, slash);
}
