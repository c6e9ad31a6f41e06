import { openArray } from "@z/zarr";
import type { DataType } from "./data-types.js";
import { toZarritaError } from "./errors.js";
import {
  type Attributes,
  bindNode,
  Group,
  Location,
  stackPath,
  Array as ZarritaArray,
} from "./hierarchy.js";
import { type AbsolutePath, bridgeStore, type Mutable } from "./store.js";

/** A codec as a v3 document lists it. */
export interface CodecMetadata {
  /** The codec's name. */
  name: string;
  /** Its configuration. */
  configuration?: Record<string, unknown>;
}

/** Options of `create` for an array (v3). */
export interface CreateArrayOptions<D extends DataType = DataType> {
  /** The shape. */
  shape: number[];
  /** The chunk shape. */
  chunkShape: number[];
  /** The data type. */
  dtype: D;
  /** The codecs (default none: elements stored as little-endian bytes). */
  codecs?: CodecMetadata[];
  /** The fill value (default null: zeros). */
  fillValue?: unknown;
  /** The separator of chunk keys (default `/`). */
  chunkSeparator?: "/" | ".";
  /** The names of the dimensions. */
  dimensionNames?: (string | null)[];
  /** The attributes. */
  attributes?: Attributes;
}

/** Options of `create` for a group (v3). */
export interface CreateGroupOptions {
  /** The attributes. */
  attributes?: Attributes;
}

const encoder = new TextEncoder();

/** A fill value as v3 JSON: NaN and the infinities by name, BigInts as numbers. */
function fillJson(value: unknown): unknown {
  if (typeof value === "number" && !Number.isFinite(value)) {
    return Number.isNaN(value) ? "NaN" : value > 0 ? "Infinity" : "-Infinity";
  }
  if (typeof value === "bigint") return Number(value);
  return value ?? null;
}

async function write(location: Location<Mutable>, doc: object): Promise<void> {
  const key = location.resolve("zarr.json").path as AbsolutePath;
  await location.store.set(key, encoder.encode(JSON.stringify(doc)));
}

/**
 * Creates a v3 array (when `shape` is given) or group at a location (or a store's root),
 * writing its `zarr.json` as zarrita does; the `@z` stack then opens the array, so a bad data
 * type or codec fails here.
 * @example
 * ```ts
 * const arr = await create(root(new Map()).resolve("a"), {
 *   shape: [100, 100], chunkShape: [10, 10], dtype: "int32",
 * });
 * ```
 * @category Open and create
 */
export async function create<Store extends Mutable, D extends DataType>(
  where: Location<Store> | Store,
  options: CreateArrayOptions<D>,
): Promise<ZarritaArray<D, Store>>;
export async function create<Store extends Mutable>(
  where: Location<Store> | Store,
  options?: CreateGroupOptions,
): Promise<Group<Store>>;
export async function create<Store extends Mutable>(
  where: Location<Store> | Store,
  options: CreateArrayOptions | CreateGroupOptions = {},
): Promise<ZarritaArray<DataType, Store> | Group<Store>> {
  const location = where instanceof Location ? where : new Location(where);
  if (!("shape" in options)) {
    const attributes = options.attributes ?? {};
    await write(location, { zarr_format: 3, node_type: "group", attributes });
    return new Group(location.store, location.path, { attributes });
  }
  const metadata = {
    zarr_format: 3,
    node_type: "array",
    shape: options.shape,
    data_type: options.dtype,
    chunk_grid: { name: "regular", configuration: { chunk_shape: options.chunkShape } },
    chunk_key_encoding: {
      name: "default",
      configuration: { separator: options.chunkSeparator ?? "/" },
    },
    codecs: options.codecs ?? [],
    fill_value: fillJson(options.fillValue),
    dimension_names: options.dimensionNames,
    attributes: options.attributes ?? {},
  };
  await write(location, metadata);
  const array = new ZarritaArray(location.store, location.path, {
    ...metadata,
    fill_value: options.fillValue ?? null,
  });
  try {
    const node = await openArray(bridgeStore(location.store), { path: stackPath(location.path) });
    bindNode(array, node);
  } catch (err) {
    throw toZarritaError(err, location.path);
  }
  return array;
}
