import { open as openNode, ZarrArray } from "@z/zarr";
import { zarritaDataType } from "./data-types.js";
import { isZarritaError, NotFoundError, toZarritaError } from "./errors.js";
import { applyArrayExtensions } from "./extensions.js";
import {
  bindNode,
  Group,
  groupOf,
  Location,
  metadataOf,
  stackPath,
  Array as ZarritaArray,
} from "./hierarchy.js";
import { bridgeStore, type Readable } from "./store.js";

/** Options of `open`. */
export interface OpenOptions {
  /** Only open this kind of node. */
  kind?: "array" | "group";
  /** Read a v2 node's `.zattrs` (default true; false gives empty attributes). */
  attrs?: boolean;
  /** Abort the metadata reads. */
  signal?: AbortSignal;
}

/** Where `open` looks: a location, or a store (its root). */
export type Where<Store> = Location<Store> | Store;

function locationOf<Store>(where: Where<Store>): Location<Store> {
  return where instanceof Location ? where : new Location(where as Store);
}

// Per store, how many nodes opened as v2 and as v3: `open` tries the format that has opened
// more first, so a v3 hierarchy costs one read per node instead of a failed v2 probe first.
const formatCounts = new WeakMap<object, { v2: number; v3: number }>();

function countsOf(store: unknown): { v2: number; v3: number } {
  const key = store as object;
  let counts = formatCounts.get(key);
  if (counts === undefined) formatCounts.set(key, (counts = { v2: 0, v3: 0 }));
  return counts;
}

async function openFormat<Store>(
  where: Where<Store>,
  format: 2 | 3,
  options: OpenOptions,
): Promise<ZarritaArray<never, Store> | Group<Store>> {
  const location = locationOf(where);
  const store = location.store as Readable;
  let node: Awaited<ReturnType<typeof openNode>>;
  try {
    node = await openNode(bridgeStore(store), {
      path: stackPath(location.path),
      zarrFormat: format,
      kind: format === 2 ? options.kind : undefined,
      signal: options.signal,
    });
  } catch (err) {
    const mapped = toZarritaError(err, location.path);
    if (isZarritaError(mapped, "NotFoundError")) {
      const what = format === 2 ? `v2 ${options.kind ?? "array or group"}` : "v3 array or group";
      throw new NotFoundError(what, { path: location.path, cause: err });
    }
    throw mapped;
  }
  const kind = node instanceof ZarrArray ? "array" : "group";
  if (options.kind !== undefined && options.kind !== kind) {
    throw new NotFoundError(`${options.kind} at ${location.path}`, {
      path: location.path,
      found: kind,
    });
  }
  countsOf(location.store)[format === 2 ? "v2" : "v3"] += 1;
  const attrs = format === 2 && options.attrs === false ? {} : undefined;
  if (node instanceof ZarrArray) {
    try {
      const meta = metadataOf(node, zarritaDataType(node.dataType, node.zarrFormat));
      if (attrs) meta.attributes = attrs;
      const array = new ZarritaArray(location.store, location.path, meta);
      bindNode(array, node);
      return (await applyArrayExtensions(array)) as ZarritaArray<never, Store>;
    } catch (err) {
      throw toZarritaError(err, location.path);
    }
  }
  if (attrs) return new Group(location.store, location.path, { attributes: attrs });
  return groupOf(location.store, location.path, node);
}

/** The node `open` returns for the options given. */
export type Opened<Store, O extends OpenOptions> = O extends { kind: "array" }
  ? ZarritaArray<import("./data-types.js").DataType, Store>
  : O extends { kind: "group" }
    ? Group<Store>
    : ZarritaArray<import("./data-types.js").DataType, Store> | Group<Store>;

/** An opener of one format (`open.v2`, `open.v3`). */
export type OpenFormat = <Store, O extends OpenOptions = OpenOptions>(
  where: Where<Store>,
  options?: O,
) => Promise<Opened<Store, O>>;

/** Opens a v2 node (`.zarray` / `.zgroup`). */
function openV2<Store, O extends OpenOptions = OpenOptions>(
  where: Where<Store>,
  options?: O,
): Promise<Opened<Store, O>> {
  return openFormat(where, 2, options ?? {}) as Promise<Opened<Store, O>>;
}

/** Opens a v3 node (`zarr.json`). */
function openV3<Store, O extends OpenOptions = OpenOptions>(
  where: Where<Store>,
  options?: O,
): Promise<Opened<Store, O>> {
  return openFormat(where, 3, options ?? {}) as Promise<Opened<Store, O>>;
}

/**
 * Opens the array or group at a location (or a store's root), v2 or v3: the format that has
 * opened more often in this store is tried first. `open.v2` and `open.v3` open one format only.
 * @example
 * ```ts
 * const arr = await open(root(new FetchStore(url)).resolve("temperature"), { kind: "array" });
 * ```
 * @throws NotFoundError when there is no node (of the kind asked for); InvalidMetadataError
 *   when its metadata is not valid
 * @category Open and create
 */
export const open: {
  <Store, O extends OpenOptions = OpenOptions>(
    where: Where<Store>,
    options?: O,
  ): Promise<Opened<Store, O>>;
  /** Opens a v2 node. */
  v2: OpenFormat;
  /** Opens a v3 node. */
  v3: OpenFormat;
} = Object.assign(
  async function openAny<Store, O extends OpenOptions = OpenOptions>(
    where: Where<Store>,
    options?: O,
  ): Promise<Opened<Store, O>> {
    const store = locationOf(where).store;
    const counts = countsOf(store);
    // Looked up on `open` at each call, so that code wrapping `open.v2`/`open.v3` is honoured.
    const [first, second] = counts.v3 > counts.v2 ? [open.v3, open.v2] : [open.v2, open.v3];
    try {
      return await first(where, options);
    } catch (err) {
      if (!isZarritaError(err, "NotFoundError", "InvalidMetadataError")) throw err;
      return second(where, options);
    }
  },
  { v2: openV2, v3: openV3 },
);
