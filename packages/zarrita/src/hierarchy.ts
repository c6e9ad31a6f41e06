import {
  type JsonObject,
  openArray,
  type Readable as StackReadable,
  type ZarrArray,
  type ZarrGroup,
} from "@z/zarr";
import { filledChunk, readGridChunk } from "./chunk-read.js";
import { type Chunk, toZarritaChunk } from "./containers.js";
import { type DataType, type DataTypeQuery, isDataType } from "./data-types.js";
import { toZarritaError, UnsupportedError } from "./errors.js";
import { relaxZarritaMetadata } from "./lenient-metadata.js";
import { inSharedMemory } from "./shared-memory.js";
import { type AbsolutePath, bridgeStore, type Readable } from "./store.js";

/** Attributes of a node, as zarrita hands them out. */
export type Attributes = Record<string, unknown>;

/**
 * A place in a store (zarrita's `Location`): the store and an absolute path. `resolve` walks
 * from it as URLs do (`"child"`, `"../sibling"`, `"/absolute"`).
 * @category Arrays and groups
 */
export class Location<Store = Readable> {
  /** The store. */
  readonly store: Store;
  /** The absolute path (`/` is the root). */
  readonly path: AbsolutePath;

  constructor(store: Store, path: AbsolutePath = "/") {
    this.store = store;
    this.path = path;
  }

  /** The location at `path`, relative to this one unless it starts with `/`. */
  resolve(path: string): Location<Store> {
    const base = new URL(`file://${this.path.endsWith("/") ? this.path : `${this.path}/`}`);
    const resolved = decodeURIComponent(new URL(path, base).pathname) as AbsolutePath;
    return new Location(this.store, resolved);
  }
}

/**
 * The root of a store (a new `Map` when none is given), to `resolve` paths from.
 * @example
 * ```ts
 * const arr = await open(root(new FetchStore(url)).resolve("temperature"), { kind: "array" });
 * ```
 * @category Open and create
 */
export function root<Store = Map<string, Uint8Array>>(store?: Store): Location<Store> {
  return new Location((store ?? new Map()) as Store);
}

/** The path of a zarrita location in the `@z` stack's terms (no leading or trailing `/`). */
export function stackPath(path: string): string {
  return path.replace(/^\/+|\/+$/g, "");
}

/** A group's metadata as zarrita keeps it. */
export interface GroupMetadata {
  /** The group's attributes. */
  attributes: Attributes;
}

/**
 * A group (zarrita's `Group`): where it is and its attributes. Open it with `open`, list it
 * with the `@z` stack (see the "Switching from zarrita" guide).
 * @category Arrays and groups
 */
export class Group<Store = Readable> extends Location<Store> {
  /** Tells groups from arrays. */
  readonly kind = "group";
  readonly #attrs: Attributes;

  constructor(store: Store, path: AbsolutePath, metadata: GroupMetadata) {
    super(store, path);
    this.#attrs = metadata.attributes ?? {};
  }

  /** The group's attributes. */
  get attrs(): Attributes {
    return this.#attrs;
  }
}

/**
 * An array's metadata as zarrita keeps it: a v3 document whose data type is zarrita's name
 * (`"v2:U7"` for a v2 `<U7`).
 */
export interface ArrayMetadata<D extends DataType = DataType> {
  /** The shape. */
  shape: number[];
  /** The data type. */
  data_type: D;
  /** The chunk grid (zarrita knows regular grids). */
  chunk_grid: { name: string; configuration: { chunk_shape: number[] } };
  /** The fill value (null when the document has none). */
  fill_value: unknown;
  /** The attributes. */
  attributes: Attributes;
  /** The names of the dimensions. */
  dimension_names?: (string | null)[];
  /** The codecs, which the `@z` stack reads from the store itself. */
  codecs?: unknown[];
}

/** Options of `Array.getChunk` beyond the store's. */
export interface GetChunkOptions {
  /** Return the elements in a SharedArrayBuffer (TypedArray data types). */
  useSharedArrayBuffer?: boolean;
}

// The @z array behind a zarrita array: set when the stack opened it, else opened on first use.
// A symbol-keyed property rather than a WeakMap, so the proxies of array extensions reach it.
const NODE = Symbol("@z/zarrita node");
// The v3 document a zarrita array was made with, when it is one the stack can read.
const DOCUMENT = Symbol("@z/zarrita document");

/** The document of zarrita metadata, when it describes a v3 array (not a converted v2 one). */
function documentOf(metadata: ArrayMetadata): Uint8Array | undefined {
  const meta = metadata as ArrayMetadata & { chunk_key_encoding?: unknown };
  if (meta.data_type.startsWith("v2:") || !meta.codecs || !meta.chunk_key_encoding)
    return undefined;
  const doc = { zarr_format: 3, node_type: "array", ...meta };
  const json = JSON.stringify(doc, (_, v) => (typeof v === "bigint" ? Number(v) : v));
  return new TextEncoder().encode(json);
}

/** A store that answers `key` with `document` (read as zarrita reads it) and the rest from `inner`. */
function withDocument(inner: StackReadable, key: string, document: Uint8Array): StackReadable {
  return new Proxy(inner, {
    get(target, prop) {
      if (prop === "get") {
        return (k: string, options?: { range?: unknown; signal?: AbortSignal }) =>
          k === key && options?.range === undefined
            ? Promise.resolve(relaxZarritaMetadata(document))
            : target.get(k, options as never);
      }
      const value = Reflect.get(target, prop, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

function setNode(array: object, node: Promise<ZarrArray>): void {
  Object.defineProperty(array, NODE, { value: node, configurable: true, enumerable: false });
}

/** Binds a zarrita array to the `@z` array it shows (the stack's `open` and `create` do). */
export function bindNode(array: object, node: ZarrArray): void {
  setNode(array, Promise.resolve(node));
}

/**
 * The `@z` array behind a zarrita array, opened on first use: from the metadata the array was
 * made with (a v3 document, as zarrita's constructor takes it), or else from the store.
 */
export function nodeOf(array: Array<DataType, unknown>): Promise<ZarrArray> {
  let node = (array as unknown as { [NODE]?: Promise<ZarrArray> })[NODE];
  if (node === undefined) {
    const bridge = bridgeStore(array.store as Readable);
    const document = (array as unknown as { [DOCUMENT]?: Uint8Array })[DOCUMENT];
    const path = stackPath(array.path);
    const key = path === "" ? "zarr.json" : `${path}/zarr.json`;
    const store = document === undefined ? bridge : withDocument(bridge, key, document);
    node = openArray(store, { path }).catch((err: unknown) => {
      throw toZarritaError(err, array.path);
    });
    setNode(array, node);
  }
  return node;
}

/** A 64-bit integer fill value as a BigInt, and NaN and the infinities as numbers, as zarrita has them. */
function zarritaFill(dtype: DataType, fill: unknown): unknown {
  if ((dtype === "int64" || dtype === "uint64") && fill != null && typeof fill !== "bigint") {
    return BigInt(fill as number | string);
  }
  if (typeof fill === "string" && /^float\d+$/.test(dtype)) {
    const special: Record<string, number> = { NaN, Infinity, "-Infinity": -Infinity };
    if (fill in special) return special[fill];
  }
  return fill;
}

/**
 * An array (zarrita's `Array`): its shape, chunks, data type and attributes; `getChunk` reads
 * one chunk, `get` and `set` read and write selections. The `@z` stack reads and decodes.
 * @category Arrays and groups
 */
// biome-ignore lint/suspicious/noShadowRestrictedNames: zarrita's API names its array class Array
export class Array<D extends DataType = DataType, Store = Readable> extends Location<Store> {
  /** Tells arrays from groups. */
  readonly kind = "array";
  readonly #metadata: ArrayMetadata<D>;

  constructor(store: Store, path: AbsolutePath, metadata: ArrayMetadata<D>) {
    super(store, path);
    const fill = zarritaFill(metadata.data_type, metadata.fill_value);
    const document = documentOf(metadata);
    if (document !== undefined) {
      Object.defineProperty(this, DOCUMENT, { value: document, enumerable: false });
    }
    this.#metadata = { ...metadata, fill_value: fill, attributes: metadata.attributes ?? {} };
    if (
      metadata.data_type === "float16" &&
      typeof (globalThis as { Float16Array?: unknown }).Float16Array !== "function"
    ) {
      throw new UnsupportedError("float16 arrays without globalThis.Float16Array");
    }
  }

  /** The attributes. */
  get attrs(): Attributes {
    return this.#metadata.attributes;
  }
  /** The names of the dimensions, when the metadata has them. */
  get dimensionNames(): (string | null)[] | undefined {
    return this.#metadata.dimension_names;
  }
  /** What never-written elements read as (null when the metadata has none). */
  get fillValue(): unknown {
    return this.#metadata.fill_value;
  }
  /** The shape. */
  get shape(): number[] {
    return this.#metadata.shape;
  }
  /** The chunk shape (the inner chunks of a sharded array). */
  get chunks(): number[] {
    return this.#metadata.chunk_grid.configuration.chunk_shape;
  }
  /** The data type, as zarrita names it. */
  get dtype(): D {
    return this.#metadata.data_type;
  }

  /**
   * The chunk at grid coordinates `coords`, decoded; a chunk never written reads as the fill
   * value.
   */
  async getChunk(
    coords: number[],
    options?: { signal?: AbortSignal },
    opts?: GetChunkOptions,
  ): Promise<Chunk<D>> {
    const node = await nodeOf(this as Array<DataType, unknown>);
    try {
      const found = await readGridChunk(node, coords, options?.signal);
      const chunk = found ?? filledChunk(node, node.chunks);
      const data = opts?.useSharedArrayBuffer ? inSharedMemory(chunk.data) : chunk.data;
      return toZarritaChunk(this.dtype, node.dataType, { ...chunk, data });
    } catch (err) {
      throw toZarritaError(err, this.path);
    }
  }

  /**
   * Whether the data type is `query`: a data type's name, or one of `"number"`, `"bigint"`,
   * `"boolean"`, `"string"`, `"object"` (narrowing the array's type).
   */
  is<Q extends DataTypeQuery>(query: Q): this is Array<NarrowDataType<D, Q>, Store> {
    return isDataType(this.dtype, query);
  }
}

/** The data types a query of `Array.is` narrows to. */
export type NarrowDataType<D extends DataType, Q extends DataTypeQuery> = Q extends "number"
  ? Extract<D, import("./data-types.js").NumberDataType>
  : Q extends "bigint"
    ? Extract<D, "int64" | "uint64">
    : Q extends "boolean"
      ? Extract<D, "bool">
      : Q extends "string"
        ? Extract<D, import("./data-types.js").StringDataType>
        : Q extends "object"
          ? Extract<D, "v2:object">
          : Extract<D, Q>;

/** zarrita's metadata of an array the `@z` stack opened. */
export function metadataOf(node: ZarrArray, dtype: DataType): ArrayMetadata {
  const meta: ArrayMetadata = {
    shape: node.shape,
    data_type: dtype,
    chunk_grid: { name: "regular", configuration: { chunk_shape: node.chunks } },
    fill_value: node.fillValue,
    attributes: node.attrs as JsonObject,
  };
  if (node.dimensionNames !== undefined) meta.dimension_names = node.dimensionNames;
  return meta;
}

/** A zarrita group for a group the `@z` stack opened. */
export function groupOf<Store>(store: Store, path: AbsolutePath, node: ZarrGroup): Group<Store> {
  return new Group(store, path, { attributes: node.attrs as JsonObject });
}
