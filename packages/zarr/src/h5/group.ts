import {
  type ArrayData,
  type ArrayOptions,
  ContainsArrayError,
  ContainsGroupError,
  copyNode,
  createArray,
  guessChunks,
  type NdValue,
  UnreadableNode,
  ZarrArray,
  type ZarrGroup,
} from "@z/array";
import { dataTypeOfContainer, readNodeMetadata } from "@z/array/internal";
import { type JsonObject, resolveNumpyDataType } from "@z/metadata";
import { isTypedArray, product } from "@z/ndarray";
import { joinKey, NotFoundError, normalizePath, prefixOf, type Readable } from "@z/store-core";
import { AttributeManager, MAXSHAPE_ATTRIBUTE } from "./attrs.js";
import { type Compression, compressionCodecs } from "./compression.js";
import { Dataset, parentPath } from "./dataset.js";
import { canCastSafely, zarrDtype } from "./dtypes.js";
import { H5TypeError, H5ValueError, NameExistsError } from "./errors.js";
import type { H5File } from "./file.js";

/** Options of {@link Group.createDataset}, with h5py's names. */
export interface DatasetOptions {
  /** The shape (an integer for 1-d); taken from `data` when omitted. */
  shape?: number | readonly number[];
  /** A NumPy-style dtype (`"f4"`, `"<i2"`, `"int16"`, `"?"`); from `data`, else `"f4"` as in h5py. */
  dtype?: string;
  /** Initial values: `{data, shape}`, a TypedArray, nested arrays or a scalar. */
  data?: unknown;
  /** The chunk shape; `true` or omitted: chosen automatically; `false`: one chunk (h5py's contiguous). */
  chunks?: boolean | readonly number[] | null;
  /** The largest shape `resize` accepts (`null` entries: unlimited). Default: the shape (fixed size), as in h5py. */
  maxshape?: number | readonly (number | null)[] | null;
  /** `"gzip"` (or a gzip level 0-9), `"zstd"`, `"blosc"`, `"lz4"`. */
  compression?: Compression | null;
  /** The compression's setting: a level, or `{cname, clevel, shuffle}` for blosc. */
  compression_opts?: unknown;
  /** Byte-shuffle before compressing. */
  shuffle?: boolean;
  /** A checksum per chunk (Zarr's crc32c codec stands in for HDF5's fletcher32). */
  fletcher32?: boolean;
  /** What never-written elements read as (default 0). */
  fillvalue?: unknown;
  /** Zarr options h5py has no words for (`dimensionNames`, `shards`, `codecs`, ...). */
  zarr?: Partial<ArrayOptions>;
}

/** Options of {@link Group.copy}, with h5py's names. */
export interface CopyOptions {
  /** The copy's name inside a destination group (default the source's name). */
  name?: string;
  /** Copy only the immediate members of a group (subgroups are copied empty). */
  shallow?: boolean;
  /** Leave the attributes behind. */
  without_attrs?: boolean;
}

/** A node of an h5 file. */
export type H5Node = Group | Dataset;

function nestedShape(value: unknown[]): number[] {
  const shape: number[] = [];
  let level: unknown = value;
  while (Array.isArray(level)) {
    shape.push(level.length);
    level = level[0];
  }
  return shape;
}

/** The shape, a default dtype (NumPy's inference) and the value to write for `data`. */
function describeData(data: unknown): {
  shape: number[];
  dtype: string;
  value: ArrayData | number | bigint | boolean;
} {
  if (typeof data === "number" || typeof data === "bigint" || typeof data === "boolean") {
    const dtype =
      typeof data === "boolean"
        ? "bool"
        : typeof data === "bigint" || Number.isInteger(data)
          ? "int64"
          : "float64";
    return { shape: [], dtype, value: data };
  }
  if (isTypedArray(data))
    return {
      shape: [data.length],
      dtype: dataTypeOfContainer(data),
      value: { data, shape: [data.length] },
    };
  if (Array.isArray(data)) {
    const shape = nestedShape(data);
    const flat = data.flat(Math.max(0, shape.length - 1)) as unknown[];
    const integers =
      flat.length > 0 &&
      flat.every((v) => typeof v === "bigint" || (typeof v === "number" && Number.isInteger(v)));
    return { shape, dtype: integers ? "int64" : dataTypeOfContainer(flat), value: data };
  }
  const nd = data as NdValue;
  if (nd && typeof nd === "object" && "data" in nd && Array.isArray(nd.shape)) {
    return { shape: [...nd.shape], dtype: dataTypeOfContainer(nd.data), value: nd };
  }
  throw new H5ValueError("data must be {data, shape}, a TypedArray, nested arrays or a scalar");
}

function shapeOf(shape: number | readonly number[]): number[] {
  return typeof shape === "number" ? [shape] : [...shape];
}

function formatTuple(shape: readonly (number | null)[]): string {
  const items = shape.map((n) => (n === null ? "None" : String(n)));
  return items.length === 1 ? `(${items[0]},)` : `(${items.join(", ")})`;
}

/**
 * h5py's `Group`, over a Zarr group. Names are paths relative to the group (`"a/b"`) or
 * absolute (`"/a/b"`). Everything that touches the store is async.
 *
 * | h5py | here |
 * |---|---|
 * | `g["x"]` | `await g.get("x")` (NotFoundError when missing) |
 * | `g.get("x")` | `await g.get("x", null)` |
 * | `"x" in g` | `await g.has("x")` |
 * | `del g["x"]` | `await g.delete("x")` |
 * | `list(g)`, `g.items()` | `await g.keys()`, `await g.items()` |
 * | `g.create_group("a/b")` | `await g.createGroup("a/b")` |
 * | `g.create_dataset("x", data=a, chunks=(4,), compression="gzip")` | `await g.createDataset("x", {data: a, chunks: [4], compression: "gzip"})` |
 */
export class Group implements AsyncIterable<string> {
  /** The group's attributes (h5py's `group.attrs`). */
  readonly attrs: AttributeManager;

  constructor(
    private readonly owner: H5File | undefined,
    /** The Zarr group underneath (replaced when its attributes change). */
    protected inner: ZarrGroup,
  ) {
    this.attrs = new AttributeManager({
      name: this.name,
      readAttributes: () => this.inner.metadata.attributes,
      checkWritable: () => this.file.requireWritable("write attributes of", this.name),
      writeAttributes: (attributes) => this.writeAttributes(attributes),
    });
  }

  /** The file the group belongs to. */
  get file(): H5File {
    return this.owner ?? (this as unknown as H5File);
  }
  /** The Zarr group underneath. */
  get zarrGroup(): ZarrGroup {
    return this.inner;
  }
  /** The store path (`""` for the root). */
  get path(): string {
    return this.inner.path;
  }
  /** The full name: `"/"` for the root, `"/a/b"` otherwise. */
  get name(): string {
    return `/${this.inner.path}`;
  }
  /** The group holding this one (the root is its own parent, as in h5py). */
  get parent(): Promise<Group> {
    return this.file.groupAt(parentPath(this.path));
  }

  private async writeAttributes(attributes: JsonObject): Promise<void> {
    // The root is read fresh so the consolidated metadata it may hold is written back as it is.
    const current = this.path === "" ? await this.file.openZarrGroup("") : this.inner;
    this.inner = await current.updateAttributes(attributes, { replace: true });
    if (this.path !== "" || this.inner.zarrFormat === 2) {
      await this.file.syncConsolidated({
        written: [[this.path, { kind: "group", metadata: this.inner.metadata }]],
      });
    }
  }

  /**
   * The store path a name refers to: absolute (`"/a/b"`) from the root, relative otherwise.
   * @throws H5ValueError for an empty name
   */
  resolve(name: string): string {
    if (name === "") throw new H5ValueError("An object name must not be empty");
    if (name === ".") return this.path;
    const rel = normalizePath(name);
    return name.startsWith("/") ? rel : joinKey(this.path, rel);
  }

  /** The Zarr group to reach a store path from, and the path relative to it. */
  private anchor(path: string): { from: ZarrGroup; rel: string } {
    this.file.assertOpen();
    // Through this group when the path is below it (its consolidated metadata may list it).
    const from =
      path === this.path || this.path === "" || path.startsWith(`${this.path}/`)
        ? this.inner
        : this.file.zarrGroup;
    return { from, rel: from.path === "" ? path : path.slice(from.path.length + 1) };
  }

  /** Opens the node at a store path, or undefined. */
  private async lookup(path: string): Promise<H5Node | undefined> {
    const { from, rel } = this.anchor(path);
    try {
      return this.file.wrap(await from.get(rel));
    } catch (error) {
      if (error instanceof NotFoundError) return undefined;
      throw error;
    }
  }

  /**
   * The object at `name` (h5py's `group[name]`); with a second argument, that value instead of
   * an error when there is none (h5py's `group.get(name, default)`).
   * @throws NotFoundError when there is no object (h5py's KeyError)
   */
  async get(name: string): Promise<H5Node>;
  async get<T>(name: string, defaultValue: T): Promise<H5Node | T>;
  async get(name: string, ...rest: unknown[]): Promise<unknown> {
    const path = this.resolve(name);
    const node = await this.lookup(path);
    if (node) return node;
    if (rest.length > 0) return rest[0];
    throw new NotFoundError(
      `/${path}`,
      "object",
      `Unable to open object (${JSON.stringify(name)} doesn't exist in ${this.name})`,
    );
  }

  /** Whether an object exists at `name` (`name in group`). */
  async has(name: string): Promise<boolean> {
    const { from, rel } = this.anchor(this.resolve(name));
    return from.has(rel);
  }

  /** The member names, sorted (h5py's default order). */
  async keys(): Promise<string[]> {
    this.file.assertOpen();
    return this.inner.childNames();
  }

  /** The members, in name order. */
  async values(): Promise<H5Node[]> {
    return (await this.items()).map(([, node]) => node);
  }

  /** `[name, object]` pairs, in name order. */
  async items(): Promise<[string, H5Node][]> {
    this.file.assertOpen();
    return (await this.inner.members()).map(([name, node]) => {
      // As h5py, whose items() raises for a member it cannot open.
      if (node instanceof UnreadableNode) throw node.error;
      return [name, this.file.wrap(node)];
    });
  }

  /** The number of members (`len(group)`). */
  async len(): Promise<number> {
    this.file.assertOpen();
    return this.inner.size();
  }

  /** The member names (`for name in group`). */
  async *[Symbol.asyncIterator](): AsyncIterator<string> {
    for (const name of await this.keys()) yield name;
  }

  private creationError(error: unknown, name: string, path: string): unknown {
    if (error instanceof ContainsArrayError || error instanceof ContainsGroupError) {
      if (error.path === path) return new NameExistsError(name);
      return new H5TypeError(
        `Unable to create ${JSON.stringify(name)}: /${error.path} is a dataset, not a group`,
      );
    }
    return error;
  }

  /**
   * Creates a group (and missing groups on the way, as h5py does).
   * @throws NameExistsError when the name is taken; FileModeError on a read-only file
   */
  async createGroup(name: string): Promise<Group> {
    this.file.requireWritable("create group", name);
    const path = this.resolve(name);
    const { from, rel } = this.anchor(path);
    try {
      return new Group(this.file, await from.createGroup(rel));
    } catch (error) {
      throw this.creationError(error, name, path);
    }
  }

  /**
   * Opens the group at `name`, creating it when there is none.
   * @throws H5TypeError when a dataset is there
   */
  async requireGroup(name: string): Promise<Group> {
    const path = this.resolve(name);
    const { from, rel } = this.anchor(path);
    // Only creating needs a writable file.
    if (!this.file.writable && !(await from.has(rel)))
      this.file.requireWritable("create group", name);
    try {
      return this.file.wrap(await from.requireGroup(rel)) as Group;
    } catch (error) {
      if (error instanceof ContainsArrayError && error.path === path)
        throw incompatible("Dataset", name);
      throw this.creationError(error, name, path);
    }
  }

  /**
   * Creates a dataset (h5py's `create_dataset`). Its `maxshape` is kept in the
   * `_H5_MAXSHAPE` attribute so `resize` can refuse to grow beyond it, as h5py does.
   * @throws NameExistsError, H5ValueError (bad shape, maxshape, dtype, compression),
   *   H5TypeError (no shape, dtype or data), FileModeError
   */
  async createDataset(name: string, options: DatasetOptions = {}): Promise<Dataset> {
    this.file.requireWritable("create dataset", name);
    const path = this.resolve(name);
    const given = options.data === undefined ? undefined : describeData(options.data);
    let shape: number[];
    if (options.shape !== undefined && options.shape !== null) {
      shape = shapeOf(options.shape);
      if (given && product(given.shape) !== product(shape)) {
        throw new H5ValueError(
          `Shape tuple ${formatTuple(shape)} is incompatible with data of shape ${formatTuple(given.shape)}`,
        );
      }
    } else if (given) {
      shape = given.shape;
    } else {
      throw new H5TypeError("One of data or shape must be given to create a dataset");
    }
    const dtype =
      options.dtype !== undefined ? zarrDtype(options.dtype) : (given?.dtype ?? "float32");
    const { dataType } = resolveNumpyDataType(dtype);
    const maxshape = this.maxshapeOf(options.maxshape, shape);
    const resizable = maxshape.some((m, i) => m !== shape[i]);
    let chunks: number[];
    if (Array.isArray(options.chunks)) {
      chunks = [...options.chunks];
    } else if (options.chunks === false || options.chunks === null) {
      if (resizable)
        throw new H5ValueError("Chunked format required for given storage options (maxshape)");
      chunks = shape.map((n) => Math.max(1, n));
    } else {
      // As h5py's guess_chunk: an empty axis that may grow is sized as if it held 1024.
      chunks = guessChunks(
        shape.map((n, i) => (n === 0 ? Math.min(1024, maxshape[i] ?? 1024) : n)),
        dataType.itemSize,
      );
    }
    const codecs = compressionCodecs(options.compression, options.compression_opts, {
      shuffle: options.shuffle,
      fletcher32: options.fletcher32,
      dataType,
      zarrFormat: this.file.zarrFormat,
    });
    let array: ZarrArray;
    try {
      array = await createArray(this.file.store, {
        zarrFormat: this.file.zarrFormat,
        ...codecs,
        ...options.zarr,
        path,
        shape,
        dtype,
        chunks,
        fillValue: options.fillvalue ?? options.zarr?.fillValue,
        attributes: { ...(options.zarr?.attributes ?? {}), [MAXSHAPE_ATTRIBUTE]: maxshape },
      });
    } catch (error) {
      throw this.creationError(error, name, path);
    }
    if (given && product(shape) > 0) {
      const value =
        given.shape.length === shape.length && given.shape.every((n, i) => n === shape[i])
          ? given.value
          : reshape(given.value, shape);
      await array.set(
        shape.map(() => null),
        value as never,
      );
    }
    return new Dataset(this.file, array);
  }

  private maxshapeOf(maxshape: DatasetOptions["maxshape"], shape: number[]): (number | null)[] {
    if (maxshape === undefined || maxshape === null) return [...shape];
    const list = typeof maxshape === "number" ? [maxshape] : [...maxshape];
    if (list.length !== shape.length) {
      throw new H5ValueError(
        `maxshape ${formatTuple(list)} must have the same rank as shape ${formatTuple(shape)}`,
      );
    }
    list.forEach((m, i) => {
      if (m !== null && (!Number.isInteger(m) || m < shape[i])) {
        throw new H5ValueError(
          `maxshape ${formatTuple(list)} must be >= shape ${formatTuple(shape)} (or None for unlimited)`,
        );
      }
    });
    return list;
  }

  /**
   * Opens the dataset at `name` if it has this shape and a dtype `dtype` casts to safely
   * (`exact`: the same dtype), else creates it (h5py's `require_dataset`).
   * @throws H5TypeError when a group is there, or the shape or dtype do not match
   */
  async requireDataset(
    name: string,
    shape: number | readonly number[],
    dtype: string,
    options: DatasetOptions & { exact?: boolean } = {},
  ): Promise<Dataset> {
    const found = await this.get(name, undefined);
    if (found === undefined) return this.createDataset(name, { ...options, shape, dtype });
    if (!(found instanceof Dataset)) throw incompatible("Group", name);
    const want = shapeOf(shape);
    if (want.length !== found.ndim || want.some((n, i) => n !== found.shape[i])) {
      throw new H5TypeError(
        `Shapes do not match (existing ${formatTuple(found.shape)} vs new ${formatTuple(want)})`,
      );
    }
    const wanted = resolveNumpyDataType(zarrDtype(dtype)).dataType;
    if (
      options.exact ? wanted.name !== found.dataType.name : !canCastSafely(wanted, found.dataType)
    ) {
      const how = options.exact
        ? "Datatypes do not exactly match"
        : "Datatypes cannot be safely cast";
      throw new H5TypeError(`${how} (existing ${found.dtype} vs new ${wanted.name})`);
    }
    return found;
  }

  /**
   * Calls `fn(name)` for every object below this group (names relative to it), parents
   * before children, siblings in name order; stops at and returns the first result other than
   * undefined or null (h5py's `visit`).
   */
  async visit<T>(fn: (name: string) => T | Promise<T>): Promise<T | undefined> {
    return this.visititems((name) => fn(name));
  }

  /** Like {@link Group.visit}, with the object too (h5py's `visititems`). */
  async visititems<T>(fn: (name: string, node: H5Node) => T | Promise<T>): Promise<T | undefined> {
    this.file.assertOpen();
    // h5py stops at any value other than None, so null goes on as undefined does.
    return this.inner.visit(
      async (path, node) => (await fn(path, this.file.wrap(node))) ?? undefined,
    );
  }

  private async existing(path: string): Promise<"array" | "group" | undefined> {
    const node = await readNodeMetadata(this.file.store, path, {
      zarrFormat: this.file.zarrFormat,
      consolidated: false,
      probeV2Consolidated: false,
    });
    return node?.kind;
  }

  private async checkDestination(
    path: string,
    name: string,
    action: string,
    store: Readable,
    file: H5File,
  ): Promise<void> {
    const there = await readNodeMetadata(store, path, {
      zarrFormat: file.zarrFormat,
      consolidated: false,
      probeV2Consolidated: false,
    });
    if (there) throw new NameExistsError(name, action);
    const parent = parentPath(path);
    const parentNode = await readNodeMetadata(store, parent, {
      zarrFormat: file.zarrFormat,
      consolidated: false,
      probeV2Consolidated: false,
    });
    if (!parentNode)
      throw new NotFoundError(
        `/${parent}`,
        "group",
        `Unable to ${action} ${JSON.stringify(name)}: its parent group does not exist`,
      );
    if (parentNode.kind !== "group")
      throw new H5TypeError(`Unable to ${action} ${JSON.stringify(name)}: /${parent} is a dataset`);
  }

  /**
   * Moves (renames) an object (h5py's `move`), through `ZarrGroup.move`: every key below it
   * is copied to the new name, then the old ones are deleted, and the root's consolidated
   * metadata, if any, follows. Needs a store that can list keys.
   * @throws NotFoundError (no source, or no parent group at the destination),
   *   NameExistsError (destination taken), H5ValueError (the root, or into itself), FileModeError
   */
  async move(source: string, dest: string): Promise<void> {
    this.file.requireWritable("move", source);
    const from = this.resolve(source);
    const to = this.resolve(dest);
    if (from === "") throw new H5ValueError("Cannot move the root group");
    if (to === from || to.startsWith(`${from}/`))
      throw new H5ValueError(`Cannot move ${JSON.stringify(source)} into itself`);
    if (!(await this.existing(from))) {
      throw new NotFoundError(
        `/${from}`,
        "object",
        `Unable to move (${JSON.stringify(source)} doesn't exist)`,
      );
    }
    await this.checkDestination(to, dest, "move to", this.file.store, this.file);
    await this.file.zarrGroup.move(from, to);
  }

  /**
   * Copies an object, possibly from another file (h5py's `copy`): `dest` is a name relative to
   * this group, or a group (then the copy is named `options.name` or after the source). Between
   * files of the same Zarr format the stored chunks are copied as they are; otherwise the
   * dataset is re-encoded for the destination's format.
   * @throws NotFoundError, NameExistsError, H5ValueError (a group into itself), FileModeError
   */
  async copy(
    source: string | H5Node,
    dest: string | Group,
    options: CopyOptions = {},
  ): Promise<void> {
    const from = typeof source === "string" ? await this.get(source) : source;
    const targetFile = dest instanceof Group ? dest.file : this.file;
    const name = options.name ?? (from.path === "" ? "" : (from.path.split("/").pop() ?? ""));
    const targetPath =
      dest instanceof Group ? joinKey(dest.path, normalizePath(name)) : this.resolve(dest);
    targetFile.requireWritable("copy to", `/${targetPath}`);
    if (targetPath === "") throw new NameExistsError("/", "copy to");
    if (
      from.file.store === targetFile.store &&
      (targetPath === from.path || targetPath.startsWith(prefixOf(from.path)))
    ) {
      throw new H5ValueError(`Cannot copy ${from.name} into itself`);
    }
    await this.checkDestination(
      targetPath,
      typeof dest === "string" ? dest : `/${targetPath}`,
      "copy to",
      targetFile.store,
      targetFile,
    );
    const keepAttributes = (node: ZarrArray | ZarrGroup) =>
      node instanceof ZarrArray
        ? // h5py's maxshape lives in an attribute here; it is part of the dataset, not of its attributes.
          Object.fromEntries(
            Object.entries(node.metadata.attributes).filter(([k]) => k === MAXSHAPE_ATTRIBUTE),
          )
        : {};
    await copyNode(zarrNodeOf(from), targetFile.store, {
      path: targetPath,
      zarrFormat: targetFile.zarrFormat,
      attributes: options.without_attrs ? keepAttributes : undefined,
      depth: options.shallow ? 1 : undefined,
    });
    await targetFile.syncConsolidated("rescan");
  }

  /**
   * Deletes an object and everything below it (h5py's `del group[name]`), through
   * `ZarrGroup.delete`, which keeps the root's consolidated metadata, if any, in step.
   * @throws NotFoundError when there is none; H5ValueError for the root; FileModeError
   */
  async delete(name: string): Promise<void> {
    this.file.requireWritable("delete", name);
    const path = this.resolve(name);
    if (path === "") throw new H5ValueError("Cannot delete the root group");
    if (!(await this.existing(path))) {
      throw new NotFoundError(
        `/${path}`,
        "object",
        `Couldn't delete link (${JSON.stringify(name)} doesn't exist)`,
      );
    }
    await this.file.zarrGroup.delete(path);
  }

  /** Like h5py's repr: `<Zarr h5 group "/a">`. */
  toString(): string {
    return `<Zarr h5 group ${JSON.stringify(this.name)}>`;
  }
}

function reshape(value: ArrayData | number | bigint | boolean, shape: number[]): unknown {
  if (typeof value !== "object") return value;
  if (Array.isArray(value)) return { data: value.flat(Number.POSITIVE_INFINITY), shape };
  if (isTypedArray(value)) return { data: value, shape };
  const nd = value as NdValue;
  if (nd.stride) throw new H5ValueError("Cannot reshape strided data; pass it in C order");
  return { data: nd.data, shape };
}

/** h5py's error for an object of the other kind where one was required. */
function incompatible(kind: "Dataset" | "Group", name: string): H5TypeError {
  return new H5TypeError(`Incompatible object (${kind}) already exists at ${JSON.stringify(name)}`);
}

/** The node of the array package under an h5 object. */
function zarrNodeOf(node: H5Node): ZarrArray | ZarrGroup {
  return node instanceof Dataset ? node.array : node.zarrGroup;
}

/** A node of the array package as an h5 object. */
export function wrapNode(file: H5File, node: ZarrArray | ZarrGroup): H5Node {
  return node instanceof ZarrArray ? new Dataset(file, node) : new Group(file, node);
}
