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
  type Writable,
} from "@z/store-core";
import { notWritableError } from "@z/store-core/internal";
import type { ChunkCache } from "../cache/chunk-cache.js";
import type { ConsolidatedMetadata } from "../consolidated/consolidated-model.js";
import {
  type ConsolidatedHolder,
  type HierarchyChange,
  holderPathOf,
  withHierarchyChange,
} from "../consolidated/update-consolidated.js";
import type { ArrayOptions } from "../create/array-metadata-builder.js";
import type { ContainerOf } from "../create/container-types.js";
import type { ArraySource, LikeOptions } from "../create/options-like.js";
import type { CreationOptions } from "../create/shorthand-options.js";
import { ContainsArrayError, ContainsGroupError, NodeError } from "../errors.js";
import { DEFAULT_CONCURRENCY, forEachConcurrent } from "../io/concurrency.js";
import { loadCreationShorthands, loadNodeEdits, loadWritePath } from "../lazy-features.js";
import type { GroupOptions } from "../write/create-nodes.js";
import { type NodeSpec, type WrittenNodes, writeNodes } from "../write/write-nodes.js";
import { ZarrArray } from "./array.js";
import { checkMaxDepth, withDescendants } from "./member-depth.js";
import { readNodeMetadata } from "./metadata-io.js";
import type { NodeMetadata } from "./node-documents.js";
import { nodeReadOnlyError, storeIsReadOnly } from "./open-mode.js";
import { checkRequiredArray } from "./required-array.js";
import { renderTree, type TreeOptions } from "./tree.js";
import { UnreadableNode } from "./unreadable-node.js";

/** How a group object was opened (passed on to the nodes opened through it). */
export interface GroupState {
  /** The consolidated metadata of the nodes below the group, if it has (or inherits) some. */
  consolidated?: ConsolidatedMetadata;
  /** False when opened with `consolidated: false`: children ignore theirs too. */
  useConsolidated?: boolean;
  /** The decoded-chunk cache of the arrays opened through the group (see `ChunkCache`). */
  cache?: ChunkCache;
}

/** Options of listings. */
export interface ListOptions {
  /** Abort the reads. */
  signal?: AbortSignal;
  /** Children opened at once (default 8). */
  concurrency?: number;
}

/** Options of {@link ZarrGroup.members} and {@link ZarrGroup.size}. */
export interface MembersOptions extends ListOptions {
  /**
   * Levels below the direct children to list too (zarr-python's `max_depth`): `0` (the
   * default) the children only, `Infinity` or `null` the whole subtree. Deeper members are
   * named by their path relative to the group (`"raw/temperature"`).
   */
  maxDepth?: number | null;
}

/** The options of a member created by a group's {@link ZarrGroup.zeros} and its siblings. */
export type MemberCreationOptions = Omit<CreationOptions, "path">;

/** The options of a member created by a group's {@link ZarrGroup.zerosLike} and its siblings. */
export type MemberLikeOptions = Omit<LikeOptions, "path">;

/** Options of {@link ZarrGroup.move} and {@link ZarrGroup.delete}. */
export interface EditOptions {
  /** Abort the edit (a move that has not started deleting its source is taken back). */
  signal?: AbortSignal;
  /** Keys copied or documents read at once (default 8). */
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
  private readonly cache: ChunkCache | undefined;
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
    this.cache = state.cache;
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
  /**
   * Whether changes through this group (attributes, new, moved or deleted members) fail with
   * `ReadOnlyError`: it was opened with mode `"r"`, or its store cannot be written
   * (zarr-python's `read_only`). The nodes opened from it are read-only too.
   */
  get readOnly(): boolean {
    return storeIsReadOnly(this.store);
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
   * With `maxDepth`, the members below too, each after its parent group, named by its path
   * relative to this group (zarr-python's `members(max_depth)`):
   * ```ts
   * const everything = await group.members({ maxDepth: Infinity }); // [["raw", g], ["raw/t", a], ...]
   * ```
   * @throws UnsupportedOperationError when the children cannot be listed; AbortError when
   *   `signal` aborts; MetadataError for a bad `maxDepth`
   */
  async members(options: MembersOptions = {}): Promise<[string, GroupMember][]> {
    const depth = checkMaxDepth(options.maxDepth);
    const direct = await this.directMembers(options);
    if (depth === 0) return direct;
    return withDescendants(direct, (node) =>
      node instanceof ZarrGroup ? node.members({ ...options, maxDepth: depth - 1 }) : undefined,
    );
  }

  /** The direct children, opened (see {@link ZarrGroup.members}). */
  private async directMembers(options: ListOptions): Promise<[string, GroupMember][]> {
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
   * them (zarr-python's `nmembers()` and `len(group)`); with `maxDepth`, of the members
   * {@link ZarrGroup.members} lists to that depth (`nmembers(max_depth)`).
   * @example
   * ```ts
   * const root = await createGroup(new Map());
   * await (await root.createGroup("raw")).createGroup("day1");
   * await root.size(); // 1
   * await root.size({ maxDepth: null }); // 2
   * ```
   * @throws UnsupportedOperationError when the children cannot be listed
   */
  async size(options: MembersOptions = {}): Promise<number> {
    if (checkMaxDepth(options.maxDepth) === 0) return (await this.childNames(options)).length;
    return (await this.members(options)).length;
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
    if (!node) throw this.noMember(name);
    return nodeFromMetadata(this.store, path, node, {
      useConsolidated: this.useConsolidated,
      cache: this.cache,
      consolidatedHolder: listed && this.view ? holderPathOf(this.path, this.view) : undefined,
    });
  }

  /** The error of a relative path where there is no node. */
  private noMember(name: string): NotFoundError {
    const path = this.childPath(normalizePath(name));
    return new NotFoundError(
      `/${path}`,
      "array or group",
      `/${this.path} has no member ${formatValue(name)}`,
    );
  }

  /** The store, which a change needs writable. */
  private writableStore(action: string): Readable & Writable {
    const store = this.store;
    if (!isWritable(store)) throw notWritableError(store, `/${this.path}`, action);
    if (storeIsReadOnly(store)) throw nodeReadOnlyError(store, this.path, action);
    return store;
  }

  /**
   * The metadata of the node at a relative path as the store holds it (consolidated metadata
   * may lag behind other writers: a move or delete acts on what is stored).
   * @throws NotFoundError when there is none
   */
  private async storedNode(rel: string, signal?: AbortSignal): Promise<NodeMetadata> {
    const node = await readNodeMetadata(this.store, this.childPath(rel), {
      zarrFormat: this.zarrFormat,
      consolidated: false,
      probeV2Consolidated: false,
      signal,
    });
    if (!node) throw this.noMember(rel);
    return node;
  }

  /**
   * Moves (renames) a member, with everything below it, to another relative path: zarr-python
   * 2's `move` (zarr-python 3 declares `Group.move` without implementing it). Every key below
   * the member moves byte for byte, for arrays and groups, v2 and v3; missing groups on the
   * way to `dest` are created, as zarr-python does; consolidated metadata of the groups above
   * either place is updated. Needs a store that can list keys.
   *
   * The keys are copied first and the source deleted last: a move that fails or is aborted
   * before it starts deleting the source puts back what it wrote (only the parent groups it
   * created stay), and one that fails while deleting leaves the destination whole and part of
   * the source's keys, unlisted; `delete(source)` then finishes it. No data is lost either way.
   * @example
   * ```ts
   * await group.move("raw/temperature", "clean/temperature"); // "clean" is created if missing
   * await group.has("raw/temperature"); // false
   * ```
   * @throws NotFoundError when there is no `source`; ContainsArrayError / ContainsGroupError
   *   when a node is at `dest`, or an array on the way to it; NodeError when `dest` is
   *   `source` or below it; ReadOnlyError when the store cannot be written;
   *   UnsupportedOperationError when it cannot list keys
   */
  async move(source: string, dest: string, options: EditOptions = {}): Promise<void> {
    const store = this.writableStore("move members of");
    const from = normalizePath(source);
    const to = normalizePath(dest);
    const { checkMove, moveNode } = await loadNodeEdits();
    checkMove(store, this.childPath(from), this.childPath(to));
    const node = await this.storedNode(from, options.signal);
    const there = await this.storedNode(to, options.signal).catch((error: unknown) => {
      if (error instanceof NotFoundError) return undefined;
      throw error;
    });
    if (there) {
      const hint = `cannot move /${this.childPath(from)} there`;
      throw there.kind === "array"
        ? new ContainsArrayError(this.childPath(to), hint)
        : new ContainsGroupError(this.childPath(to), hint);
    }
    const slash = to.lastIndexOf("/");
    if (slash > 0) await this.requireGroup(to.slice(0, slash), { signal: options.signal });
    const moved = await moveNode(
      store,
      { path: this.childPath(from), kind: node.kind, zarrFormat: node.metadata.zarrFormat },
      this.childPath(to),
      options,
    );
    this.noteChange(moved.holders, { removed: [this.childPath(from)], written: moved.written });
  }

  /**
   * Deletes a member and everything below it (zarr-python's `del group[name]`). Consolidated
   * metadata of the groups above stops listing it first, then its keys are deleted; a failure
   * while deleting leaves part of them, and deleting again finishes.
   * @example
   * ```ts
   * await group.delete("raw/temperature");
   * ```
   * @throws NotFoundError when there is no member there; NodeError for `""` (the group
   *   itself: delete it from its parent); ReadOnlyError when the store cannot be written
   */
  async delete(name: string, options: EditOptions = {}): Promise<void> {
    const store = this.writableStore("delete members of");
    const rel = normalizePath(name);
    if (rel === "") {
      throw new NodeError(`/${this.path} cannot delete itself: delete it from its parent group`, {
        path: this.path,
      });
    }
    const node = await this.storedNode(rel, options.signal);
    const path = this.childPath(rel);
    const { deleteNode } = await loadNodeEdits();
    const holders = await deleteNode(store, path, node.kind, node.metadata.zarrFormat, options);
    this.noteChange(holders, { removed: [path] });
  }

  /**
   * Creates a member array whose elements all read as zero: the array the top-level
   * `zeros(store, {path, ...})` creates there (zarr-python's `Group.zeros`).
   * @example
   * ```ts
   * const counts = await group.zeros("counts", { shape: [100], dtype: "int32" });
   * ```
   */
  async zeros(name: string, options: MemberCreationOptions): Promise<ZarrArray> {
    const { zerosOptions } = await loadCreationShorthands();
    return this.createArray(name, zerosOptions(options));
  }

  /** Creates a member array whose elements all read as one (zarr-python's `Group.ones`). */
  async ones(name: string, options: MemberCreationOptions): Promise<ZarrArray> {
    const { onesOptions } = await loadCreationShorthands();
    return this.createArray(name, onesOptions(options));
  }

  /** Creates a member array whose elements all read as `fillValue` (zarr-python's `Group.full`). */
  async full(
    name: string,
    options: MemberCreationOptions & { fillValue: unknown },
  ): Promise<ZarrArray> {
    const { fullOptions } = await loadCreationShorthands();
    return this.createArray(name, fullOptions(options));
  }

  /**
   * Creates a member array left unwritten: its elements read as the fill value
   * (zarr-python's `Group.empty`).
   */
  async empty(
    name: string,
    options: MemberCreationOptions & { fillValue?: unknown },
  ): Promise<ZarrArray> {
    const { emptyOptions } = await loadCreationShorthands();
    return this.createArray(name, emptyOptions(options));
  }

  /**
   * Creates a member array of zeros with the layout of `source` (zarr-python's
   * `Group.zeros_like`; see {@link LikeOptions} for what is taken). The array is in the
   * group's format unless `options.zarrFormat` says otherwise (a source of the other format
   * is converted as {@link copyNode} converts it).
   * @example
   * ```ts
   * const mask = await group.zerosLike("mask", await group.get("temperature") as ZarrArray, { dtype: "bool" });
   * ```
   */
  async zerosLike(
    name: string,
    source: ArraySource,
    options: MemberLikeOptions = {},
  ): Promise<ZarrArray> {
    const { zerosLikeOptions } = await loadCreationShorthands();
    return this.createArray(name, zerosLikeOptions(source, this.inFormat(options)));
  }

  /** Creates a member array of ones like `source` (zarr-python's `Group.ones_like`). */
  async onesLike(
    name: string,
    source: ArraySource,
    options: MemberLikeOptions = {},
  ): Promise<ZarrArray> {
    const { onesLikeOptions } = await loadCreationShorthands();
    return this.createArray(name, onesLikeOptions(source, this.inFormat(options)));
  }

  /**
   * Creates a member array like `source` reading as `options.fillValue` (zarr-python's
   * `Group.full_like`).
   */
  async fullLike(
    name: string,
    source: ArraySource,
    options: MemberLikeOptions & { fillValue: unknown },
  ): Promise<ZarrArray> {
    const { fullLikeOptions } = await loadCreationShorthands();
    return this.createArray(name, fullLikeOptions(source, this.inFormat(options)));
  }

  /**
   * Creates a member array like `source`, left unwritten (zarr-python's `Group.empty_like`):
   * its elements read as the source's fill value.
   */
  async emptyLike(
    name: string,
    source: ArraySource,
    options: MemberLikeOptions = {},
  ): Promise<ZarrArray> {
    const { emptyLikeOptions } = await loadCreationShorthands();
    return this.createArray(name, emptyLikeOptions(source, this.inFormat(options)));
  }

  /** Options for a member like another array: the group's format unless they name one. */
  private inFormat<O extends MemberLikeOptions>(options: O): O {
    return { ...options, zarrFormat: options.zarrFormat ?? this.zarrFormat };
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
    const below = created.written.filter(([p]) => p !== this.path);
    const removed = overwrite ? created.requested : [];
    this.noteChange(created.holdersWritten, { removed, written: below });
  }

  /**
   * Keeps the in-memory consolidated metadata in step with a change made through this group:
   * the holder's as written when the change updated it, else the change applied to it.
   */
  private noteChange(
    holdersWritten: ReadonlyMap<string, ConsolidatedHolder> | undefined,
    change: HierarchyChange,
  ): void {
    if (!this.view) return;
    const holderPath = holderPathOf(this.path, this.view);
    const holder = holdersWritten?.get(holderPath);
    if (holder) {
      this.view = holder.consolidated.subtree(this.view.pathInHolder);
      // A v3 group holding its consolidated metadata keeps it in its own metadata document.
      if (holderPath === this.path && holder.metadata.zarrFormat === 3) this.meta = holder.metadata;
      return;
    }
    this.view = withHierarchyChange(this.path, this.view, change);
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
    const store = this.writableStore("update attributes of");
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
    /** The decoded-chunk cache of the arrays (see `ChunkCache`). */
    cache?: ChunkCache;
  } = {},
): Promise<ZarrArray | ZarrGroup> {
  const { cache } = options;
  if (node.kind === "array") {
    const holders = options.consolidatedHolder === undefined ? [] : [options.consolidatedHolder];
    return afterLoading(
      () => new ZarrArray(store, path, node.metadata, { consolidatedHolders: holders, cache }),
    );
  }
  return Promise.resolve(
    new ZarrGroup(store, path, node.metadata, {
      consolidated: node.consolidated,
      useConsolidated: options.useConsolidated,
      cache,
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
