import { afterLoading } from "@z/codecs";
import { formatValue } from "@z/errors";
import type { GroupMetadata, JsonObject } from "@z/metadata";
import { checkAttributes } from "@z/metadata";
import {
  isListable,
  isWritable,
  joinKey,
  type Listable,
  NotFoundError,
  normalizePath,
  prefixOf,
  type Readable,
  throwIfAborted,
  UnsupportedOperationError,
} from "@z/store-core";
import { notWritableError } from "@z/store-core/internal";
import type { ConsolidatedMetadata } from "../consolidated/consolidated-model.js";
import { holderPathOf, withHierarchyChange } from "../consolidated/update-consolidated.js";
import type { ArrayOptions } from "../create/array-metadata-builder.js";
import type { ContainerOf } from "../create/container-types.js";
import { ContainsArrayError, ContainsGroupError } from "../errors.js";
import { DEFAULT_CONCURRENCY, forEachConcurrent } from "../io/concurrency.js";
import { loadWritePath } from "../lazy-features.js";
import type { GroupOptions } from "../write/create-nodes.js";
import { type NodeSpec, type WrittenNodes, writeNodes } from "../write/write-nodes.js";
import { ZarrArray } from "./array.js";
import { readNodeMetadata } from "./metadata-io.js";
import type { NodeMetadata } from "./node-documents.js";
import { checkRequiredArray } from "./required-array.js";
import { renderTree, type TreeOptions } from "./tree.js";
import { UnreadableNode } from "./unreadable-node.js";

/** How a group object was opened (passed on to the nodes opened through it). */
export interface GroupState {
  /** The consolidated metadata of the nodes below the group, if it has (or inherits) some. */
  consolidated?: ConsolidatedMetadata;
  /** False when opened with `consolidated: false`: children ignore theirs too. */
  useConsolidated?: boolean;
}

/** Options of listings. */
export interface ListOptions {
  /** Abort the reads. */
  signal?: AbortSignal;
  /** Children opened at once (default 8). */
  concurrency?: number;
}

/**
 * What {@link ZarrGroup.members} lists for a child: the array or group, or, when the child
 * cannot be opened, an {@link UnreadableNode} holding the error.
 * @category Arrays and groups
 */
export type GroupMember = ZarrArray | ZarrGroup | UnreadableNode;

/**
 * A Zarr group: a node holding arrays and other groups, with attributes.
 *
 * A group opened with consolidated metadata (see {@link consolidateMetadata}) lists and opens
 * its whole subtree from it, without further reads; `get` of a name it does not list still
 * looks in the store.
 *
 * @example
 * ```ts
 * const root = await createGroup(store);
 * const temps = await root.createArray("temperature", { shape: [365], dtype: "float32" });
 * for (const [name, node] of await root.members()) console.log(name, node.toString());
 * // A child that cannot be opened is an UnreadableNode there, with its error.
 * console.log(await root.tree());
 * ```
 * @category Arrays and groups
 */
export class ZarrGroup {
  private view: ConsolidatedMetadata | undefined;
  private readonly useConsolidated: boolean;
  private meta: GroupMetadata;

  constructor(
    /** The store the group lives in. */
    readonly store: Readable,
    /** The group's path in the store (`""` for the root). */
    readonly path: string,
    metadata: GroupMetadata,
    state: GroupState = {},
  ) {
    this.meta = metadata;
    this.view = state.consolidated;
    this.useConsolidated = state.useConsolidated ?? true;
  }

  /**
   * The group's metadata (replaced, not mutated, by attribute updates, with the metadata as
   * stored after them).
   */
  get metadata(): GroupMetadata {
    return this.meta;
  }

  /** The group's name: the last segment of its path (`""` for the root). */
  get name(): string {
    return this.path.split("/").pop() ?? "";
  }
  /** 2 or 3. */
  get zarrFormat(): 2 | 3 {
    return this.metadata.zarrFormat;
  }
  /** The user attributes (a snapshot; change them with {@link ZarrGroup.updateAttributes}). */
  get attrs(): JsonObject {
    return structuredClone(this.metadata.attributes);
  }
  /** The consolidated metadata this group lists its subtree from, if any. */
  get consolidated(): ConsolidatedMetadata | undefined {
    return this.view;
  }

  /** The path of a child node. */
  childPath(name: string): string {
    return joinKey(this.path, name);
  }

  /**
   * The names of the direct children, sorted: from the consolidated metadata when the group
   * has some, otherwise by listing the store.
   * @throws UnsupportedOperationError when the group has no consolidated metadata and the
   *   store cannot list keys
   */
  async childNames(_options: { signal?: AbortSignal } = {}): Promise<string[]> {
    if (this.view) return this.view.childNames();
    if (!isListable(this.store)) {
      throw new UnsupportedOperationError(
        `Cannot list the members of /${this.path}: the store cannot list keys and the group has no consolidated metadata`,
      );
    }
    const { prefixes } = await this.store.listDir(prefixOf(this.path));
    const metadataKeys = this.zarrFormat === 3 ? ["zarr.json"] : [".zarray", ".zgroup"];
    const names = await Promise.all(
      prefixes.map(async (prefix) => {
        const { keys } = await (this.store as Readable & Listable).listDir(prefix);
        const isNode = keys.some((key) => metadataKeys.includes(key.slice(prefix.length)));
        return isNode ? prefix.slice(prefixOf(this.path).length, -1) : undefined;
      }),
    );
    return names.filter((name) => name !== undefined).sort();
  }

  /**
   * The direct children, sorted by name, each opened (a bounded number at a time). A child
   * that cannot be opened (malformed metadata, an unregistered codec, a failed read) is listed
   * as an {@link UnreadableNode} holding its error, so one bad child never hides the others.
   * @example
   * ```ts
   * for (const [name, node] of await group.members()) {
   *   if (node instanceof UnreadableNode) console.warn(name, node.error.message);
   *   else console.log(name, String(node));
   * }
   * ```
   * @throws UnsupportedOperationError when the children cannot be listed; AbortError when
   *   `signal` aborts
   */
  async members(options: ListOptions = {}): Promise<[string, GroupMember][]> {
    const names = await this.childNames(options);
    const out: [string, GroupMember][] = new Array(names.length);
    await forEachConcurrent(
      names.keys(),
      options.concurrency ?? DEFAULT_CONCURRENCY,
      async (i) => {
        out[i] = [names[i], await this.openMember(names[i], options.signal)];
      },
      options.signal,
    );
    return out;
  }

  /** A child opened, or the {@link UnreadableNode} that says why it cannot be. */
  private async openMember(name: string, signal?: AbortSignal): Promise<GroupMember> {
    try {
      return await this.get(name, { signal });
    } catch (error) {
      throwIfAborted(signal);
      const reason = error instanceof Error ? error : new Error(String(error));
      return new UnreadableNode(this.childPath(name), reason);
    }
  }

  /**
   * The child arrays. Children that cannot be opened are left out ({@link ZarrGroup.members}
   * lists them, with their errors).
   * @example
   * ```ts
   * const names = (await group.arrays()).map(([name]) => name);
   * ```
   */
  async arrays(options: ListOptions = {}): Promise<[string, ZarrArray][]> {
    return (await this.members(options)).filter(
      (entry): entry is [string, ZarrArray] => entry[1] instanceof ZarrArray,
    );
  }

  /**
   * The child groups. Children that cannot be opened are left out ({@link ZarrGroup.members}
   * lists them, with their errors).
   */
  async groups(options: ListOptions = {}): Promise<[string, ZarrGroup][]> {
    return (await this.members(options)).filter(
      (entry): entry is [string, ZarrGroup] => entry[1] instanceof ZarrGroup,
    );
  }

  /**
   * The number of direct children (arrays and groups), as {@link ZarrGroup.childNames} lists
   * them (zarr-python's `nmembers()` and `len(group)`).
   * @example
   * ```ts
   * const root = await createGroup(new Map());
   * await root.createGroup("raw");
   * await root.size(); // 1
   * ```
   * @throws UnsupportedOperationError when the children cannot be listed
   */
  async size(options: { signal?: AbortSignal } = {}): Promise<number> {
    return (await this.childNames(options)).length;
  }

  /**
   * Whether a node exists at a relative path (`"a"`, `"a/b"`; `""` is the group itself),
   * zarr-python's `name in group`. Only the node's metadata is looked up, as `get` does, so
   * a store that cannot list keys answers too.
   * @example
   * ```ts
   * if (!(await group.has("raw/temperature"))) await group.createArray("raw/temperature", options);
   * ```
   * @throws the error of a node whose metadata cannot be read or parsed (it exists, but what
   *   it is cannot be told)
   */
  async has(name: string, options: { signal?: AbortSignal } = {}): Promise<boolean> {
    return (await this.getOrUndefined(name, options.signal)) !== undefined;
  }

  /**
   * The direct children, in name order, each opened as it is reached (zarr-python's
   * `async for name, node in group.members()`). Unlike {@link ZarrGroup.members}, a child
   * that cannot be opened ends the iteration with its error, since there is no node to yield.
   * @example
   * ```ts
   * for await (const [name, node] of group) {
   *   console.log(name, node instanceof ZarrArray ? node.shape : "group");
   * }
   * ```
   * @throws UnsupportedOperationError when the children cannot be listed
   */
  async *[Symbol.asyncIterator](): AsyncIterator<[string, ZarrArray | ZarrGroup]> {
    for (const name of await this.childNames()) yield [name, await this.get(name)];
  }

  /**
   * Walks the hierarchy below this group depth-first: each node, then what is below it,
   * siblings in name order, with its path relative to this group. Stops at the first value
   * other than undefined that `callback` returns and returns it (h5py's `visititems`, and
   * `visit` with the node ignored; zarr-python's `members(max_depth=None)` as a walk).
   * @example
   * ```ts
   * // Every array below, with its path.
   * await group.visit((path, node) => { if (node instanceof ZarrArray) console.log(path); });
   * // The first array named "temperature" anywhere below.
   * const found = await group.visit((path, node) =>
   *   node instanceof ZarrArray && node.name === "temperature" ? node : undefined,
   * );
   * ```
   * @throws the error of a child that cannot be opened; UnsupportedOperationError when a
   *   group's children cannot be listed
   */
  async visit<T>(
    callback: (path: string, node: ZarrArray | ZarrGroup) => T | undefined | Promise<T | undefined>,
    options: { signal?: AbortSignal } = {},
  ): Promise<T | undefined> {
    const walk = async (group: ZarrGroup, base: string): Promise<T | undefined> => {
      for (const name of await group.childNames(options)) {
        throwIfAborted(options.signal);
        const node = await group.get(name, options);
        const path = base === "" ? name : `${base}/${name}`;
        const result = await callback(path, node);
        if (result !== undefined) return result;
        if (node instanceof ZarrGroup) {
          const below = await walk(node, path);
          if (below !== undefined) return below;
        }
      }
      return undefined;
    };
    return walk(this, "");
  }

  /**
   * Opens the group at a relative path, or creates it (with missing groups on the way) when
   * there is no node there (zarr-python's `require_group`). `options` apply only when it is
   * created.
   * @example
   * ```ts
   * const raw = await root.requireGroup("raw"); // created the first time, opened after
   * ```
   * @throws ContainsArrayError when an array is there
   */
  async requireGroup(name: string, options: Omit<GroupOptions, "path"> = {}): Promise<ZarrGroup> {
    const group = (node: ZarrArray | ZarrGroup): ZarrGroup => {
      if (node instanceof ZarrArray) throw new ContainsArrayError(node.path, "expected a group");
      return node;
    };
    return this.requireNode(name, options.signal, group, () => this.createGroup(name, options));
  }

  /**
   * Opens the array at a relative path after checking its shape and data type against
   * `options`, or creates it from `options` when there is no node there (zarr-python's
   * `require_array`). The other options apply only when it is created.
   * @example
   * ```ts
   * const temps = await group.requireArray("temperature", { shape: [365], dtype: "float32" });
   * ```
   * @throws ContainsGroupError when a group is there; ShapeMismatchError or
   *   DataTypeMismatchError when the array there has another shape or data type
   */
  async requireArray<D extends string>(
    name: string,
    options: ArrayOptions & { signal?: AbortSignal; dtype: D },
  ): Promise<ZarrArray<ContainerOf<D>>>;
  async requireArray(
    name: string,
    options: ArrayOptions & { signal?: AbortSignal },
  ): Promise<ZarrArray>;
  async requireArray(
    name: string,
    options: ArrayOptions & { signal?: AbortSignal },
  ): Promise<ZarrArray> {
    const array = (node: ZarrArray | ZarrGroup): ZarrArray => {
      if (node instanceof ZarrGroup) throw new ContainsGroupError(node.path, "expected an array");
      checkRequiredArray(node, options);
      return node;
    };
    return this.requireNode(name, options.signal, array, () => this.createArray(name, options));
  }

  /**
   * The node at `name` checked by `accept`, or the one `create` makes. When creating fails
   * because another writer made a node there meanwhile, that node is checked instead.
   */
  private async requireNode<N>(
    name: string,
    signal: AbortSignal | undefined,
    accept: (node: ZarrArray | ZarrGroup) => N,
    create: () => Promise<N>,
  ): Promise<N> {
    const found = await this.getOrUndefined(name, signal);
    if (found) return accept(found);
    try {
      return await create();
    } catch (error) {
      if (!(error instanceof ContainsArrayError || error instanceof ContainsGroupError))
        throw error;
      const made = await this.getOrUndefined(name, signal);
      if (!made) throw error;
      return accept(made);
    }
  }

  /** The node at a relative path, or undefined when there is none. */
  private async getOrUndefined(
    name: string,
    signal?: AbortSignal,
  ): Promise<ZarrArray | ZarrGroup | undefined> {
    try {
      return await this.get(name, { signal });
    } catch (error) {
      if (error instanceof NotFoundError) return undefined;
      throw error;
    }
  }

  /**
   * Opens a descendant by relative path (`"a"`, `"a/b"`): from the consolidated metadata when
   * it lists it, otherwise from the store.
   * @example
   * ```ts
   * const temperature = await group.get("raw/temperature");
   * if (temperature instanceof ZarrArray) console.log(temperature.shape);
   * ```
   * @throws NotFoundError when there is no node there
   */
  async get(name: string, options: { signal?: AbortSignal } = {}): Promise<ZarrArray | ZarrGroup> {
    const rel = normalizePath(name);
    if (rel === "") return this;
    const path = this.childPath(rel);
    // Consolidated entries are parsed when first asked for.
    const listed = await afterLoading(() => this.view?.node(rel));
    const node =
      listed ??
      (await readNodeMetadata(this.store, path, {
        zarrFormat: this.zarrFormat,
        consolidated: this.useConsolidated ? undefined : false,
        // A v2 child's own `.zmetadata` would cost a request per child; open such a group
        // directly (openGroup) to use it.
        probeV2Consolidated: false,
        signal: options.signal,
      }));
    if (!node)
      throw new NotFoundError(
        `/${path}`,
        "array or group",
        `/${this.path} has no member ${formatValue(name)}`,
      );
    return nodeFromMetadata(this.store, path, node, {
      useConsolidated: this.useConsolidated,
      consolidatedHolder: listed && this.view ? holderPathOf(this.path, this.view) : undefined,
    });
  }

  /**
   * Creates an array under this group (same format as the group unless given). Missing
   * groups on the way (`"a/b/x"`) are created too.
   * @example
   * ```ts
   * const temps = await group.createArray("temperature", { shape: [365], chunks: [30], dtype: "float32" });
   * const { data } = await temps.get(); // data: Float32Array
   * ```
   */
  async createArray<D extends string>(
    name: string,
    options: ArrayOptions & { overwrite?: boolean; signal?: AbortSignal; dtype: D },
  ): Promise<ZarrArray<ContainerOf<D>>>;
  async createArray(
    name: string,
    options: ArrayOptions & { overwrite?: boolean; signal?: AbortSignal },
  ): Promise<ZarrArray>;
  async createArray(
    name: string,
    options: ArrayOptions & { overwrite?: boolean; signal?: AbortSignal },
  ): Promise<ZarrArray> {
    const path = this.childPath(normalizePath(name));
    return (await this.createChild(
      path,
      { kind: "array", zarrFormat: this.zarrFormat, ...options },
      options,
    )) as ZarrArray;
  }

  /**
   * Creates a group under this group (same format as the group unless given).
   * @example
   * ```ts
   * const raw = await group.createGroup("raw", { attributes: { source: "station 4" } });
   * ```
   */
  async createGroup(name: string, options: Omit<GroupOptions, "path"> = {}): Promise<ZarrGroup> {
    const path = this.childPath(normalizePath(name));
    const spec: NodeSpec = {
      kind: "group",
      zarrFormat: options.zarrFormat ?? this.zarrFormat,
      attributes: options.attributes,
    };
    return (await this.createChild(path, spec, options)) as ZarrGroup;
  }

  /**
   * Writes a child node and keeps this object's consolidated metadata in step with it (the
   * stored one, if an ancestor holds it, is updated by writeNodes).
   */
  private async createChild(
    path: string,
    spec: NodeSpec,
    options: { overwrite?: boolean; signal?: AbortSignal },
  ): Promise<ZarrArray | ZarrGroup> {
    const created = await writeNodes(this.store, [[path, spec]], options);
    this.noteCreated(created, options.overwrite);
    const node = created.written.find(([p]) => p === path)?.[1] as NodeMetadata;
    return created.arrays.get(path) ?? nodeFromMetadata(this.store, path, node);
  }

  /**
   * Keeps the in-memory consolidated metadata in step with nodes created through this group:
   * the holder's as written when the creation updated it (nodes other writers created
   * meanwhile included), else this creation's change applied to it.
   */
  private noteCreated(created: WrittenNodes, overwrite?: boolean): void {
    if (!this.view) return;
    const holderPath = holderPathOf(this.path, this.view);
    const holder = created.holdersWritten?.get(holderPath);
    if (holder) {
      this.view = holder.consolidated.subtree(this.view.pathInHolder);
      // A v3 group holding its consolidated metadata keeps it in its own metadata document.
      if (holderPath === this.path && holder.metadata.zarrFormat === 3) this.meta = holder.metadata;
      return;
    }
    const below = created.written.filter(([p]) => p !== this.path);
    const removed = overwrite ? created.requested : [];
    this.view = withHierarchyChange(this.path, this.view, { removed, written: below });
  }

  /**
   * Renders the hierarchy below this group as text (see {@link renderTree}).
   * @example
   * ```ts
   * console.log(await group.tree({ level: 2 }));
   * ```
   */
  async tree(options: TreeOptions = {}): Promise<string> {
    return renderTree(this, options);
  }

  /**
   * Merges `attributes` into the group's stored attributes (or replaces them) and writes the
   * metadata. The stored metadata is read again first, so attributes other writers set
   * meanwhile (other objects, other processes) are kept; this object then holds the metadata
   * as stored. A group holding consolidated metadata keeps it, with its own attributes
   * updated; a group opened through an ancestor's consolidated metadata gets its entry there
   * updated.
   * @returns this group, updated
   * @example
   * ```ts
   * const root = await createGroup(new Map(), { attributes: { title: "survey" } });
   * await root.updateAttributes({ version: 2 });
   * root.attrs; // { title: "survey", version: 2 }
   * (await root.updateAttributes({ only: true }, { replace: true })).attrs; // { only: true }
   * ```
   */
  async updateAttributes(
    attributes: JsonObject,
    options: { replace?: boolean; signal?: AbortSignal } = {},
  ): Promise<this> {
    const store = this.store;
    if (!isWritable(store)) throw notWritableError(store, `/${this.path}`, "update attributes of");
    checkAttributes(attributes, `/${this.path} attributes`);
    const { signal } = options;
    const { updateHolderEntry, updateNodeMetadata } = await loadWritePath();
    const change = { attributes, replaceAttributes: options.replace === true };
    const current: NodeMetadata = { kind: "group", metadata: this.meta };
    const stored = await updateNodeMetadata(store, this.path, current, change, { signal });
    let view = this.view;
    if (view?.isRoot && stored.metadata.zarrFormat === 3) {
      // v3 keeps the consolidated metadata the group holds in the zarr.json just updated.
      view = stored.kind === "group" ? stored.consolidated : undefined;
    } else if (view) {
      // v2 lists the group's own attributes in its .zmetadata; a group below the holder has
      // its entry in the ancestor's.
      const holderPath = holderPathOf(this.path, view);
      const held = await updateHolderEntry(store, holderPath, this.path, stored, { signal });
      view = held?.consolidated.subtree(view.pathInHolder);
    }
    this.meta = stored.metadata as GroupMetadata;
    this.view = view;
    return this;
  }

  /** A short human-readable description. */
  toString(): string {
    return `<ZarrGroup v${this.zarrFormat} /${this.path}>`;
  }
}

/**
 * Builds the array or group object for metadata read from a store, loading first the codecs
 * and data types that building it needs, named or implied (see `afterLoading`).
 */
export function nodeFromMetadata(
  store: Readable,
  path: string,
  node: NodeMetadata,
  options: {
    useConsolidated?: boolean;
    /** The group whose consolidated metadata listed an array (its edits update it there). */
    consolidatedHolder?: string;
  } = {},
): Promise<ZarrArray | ZarrGroup> {
  if (node.kind === "array") {
    const holders = options.consolidatedHolder === undefined ? [] : [options.consolidatedHolder];
    return afterLoading(
      () => new ZarrArray(store, path, node.metadata, { consolidatedHolders: holders }),
    );
  }
  return Promise.resolve(
    new ZarrGroup(store, path, node.metadata, {
      consolidated: node.consolidated,
      useConsolidated: options.useConsolidated,
    }),
  );
}

/**
 * The former name of {@link ZarrGroup}, kept so existing code keeps working.
 * @deprecated Use ZarrGroup.
 * @category Arrays and groups
 */
export const Group = ZarrGroup;
/**
 * The former name of {@link ZarrGroup}, kept so existing code keeps working.
 * @deprecated Use ZarrGroup.
 */
export type Group = ZarrGroup;
