import {
  BoolArray,
  type Container,
  type DataType,
  isTypedArray,
  type JsonObject,
  MetadataError,
  type NamedConfig,
} from "@z/metadata";
import { product } from "@z/metadata/internal";
import type { StoreLike } from "@z/store-core";
import { ZarrArray } from "./array.js";
import { chunksOptionOf } from "./chunk-grid-option.js";
import type { CodecSpec } from "./codec-specs.js";
import { copyArrayElements } from "./copy-elements.js";
import { type CreateNodeOptions, createArray } from "./create.js";
import type { ArrayOptions } from "./create-metadata.js";
import { ValueShapeError } from "./errors.js";
import { shardingOf } from "./sharding-config.js";
import { type NdValue, sameShape } from "./values.js";

/**
 * Options of {@link zeros}, {@link ones}, {@link full} and {@link empty}: `createArray`'s, with
 * the data type defaulting to `float64` (NumPy's default).
 */
export type CreationOptions = Omit<ArrayOptions, "dtype" | "fillValue"> &
  CreateNodeOptions & { dtype?: string | DataType };

/** Options of the `*Like` helpers: anything given overrides what is taken from the source. */
export type LikeOptions = Partial<ArrayOptions> & CreateNodeOptions;

/** What an array can be created like: a Zarr array, or an n-d value (`{shape, data?}`). */
export type ArraySource =
  | ZarrArray
  | { shape: readonly number[]; data?: Container; dtype?: string | DataType };

/** What {@link fromArray} copies: a Zarr array, an n-d value, a flat TypedArray or nested arrays. */
export type ArrayData = ZarrArray | NdValue | Container | unknown[];

/** Options of {@link fromArray}. */
export type FromArrayOptions = LikeOptions & {
  /** Chunks copied at once (default 8). */
  concurrency?: number;
  /** Called after each chunk (or shard) is written. */
  onProgress?: (progress: { done: number; total: number }) => void;
};

/**
 * Creates an array whose elements all read as zero (a fill value of 0: nothing is written but
 * the metadata). As NumPy's `zeros` and zarr-python's `zeros`.
 */
export function zeros(store: StoreLike, options: CreationOptions): Promise<ZarrArray> {
  return createArray(store, { ...options, dtype: options.dtype ?? "float64", fillValue: 0 });
}

/** Creates an array whose elements all read as one (the fill value). */
export function ones(store: StoreLike, options: CreationOptions): Promise<ZarrArray> {
  return createArray(store, { ...options, dtype: options.dtype ?? "float64", fillValue: 1 });
}

/** Creates an array whose elements all read as `fillValue`. */
export function full(
  store: StoreLike,
  options: CreationOptions & { fillValue: unknown },
): Promise<ZarrArray> {
  return createArray(store, { ...options, dtype: options.dtype ?? "float64" });
}

/**
 * Creates an array without initialising it. In Zarr, unwritten elements read as the fill value
 * (the data type's default, or the one given), so this is `full` with an optional fill value.
 */
export function empty(
  store: StoreLike,
  options: CreationOptions & { fillValue?: unknown },
): Promise<ZarrArray> {
  return createArray(store, { ...options, dtype: options.dtype ?? "float64" });
}

const CONTAINER_TYPES: [abstract new (...args: never[]) => unknown, string][] = [
  [BoolArray, "bool"],
  [Int8Array, "int8"],
  [Uint8Array, "uint8"],
  [Uint8ClampedArray, "uint8"],
  [Int16Array, "int16"],
  [Uint16Array, "uint16"],
  [Int32Array, "int32"],
  [Uint32Array, "uint32"],
  [Float32Array, "float32"],
  [Float64Array, "float64"],
  [BigInt64Array, "int64"],
  [BigUint64Array, "uint64"],
];

/**
 * The data type name a container implies: its TypedArray class (BoolArray is bool), or for a
 * plain array, bool (all booleans), int64 (all bigints), string (all strings), else float64.
 */
export function dataTypeOfContainer(data: Container | unknown[]): string {
  if (isTypedArray(data)) {
    const found = CONTAINER_TYPES.find(([ctor]) => data instanceof ctor);
    if (found) return found[1];
  }
  const items = data as unknown[];
  if (items.length > 0 && items.every((v) => typeof v === "boolean")) return "bool";
  if (items.length > 0 && items.every((v) => typeof v === "bigint")) return "int64";
  if (items.length > 0 && items.every((v) => typeof v === "string")) return "string";
  return "float64";
}

function codecSpecs(codecs: readonly NamedConfig[]): CodecSpec[] {
  return codecs.map((c) => ({
    name: c.name,
    configuration: c.configuration,
    must_understand: c.mustUnderstand,
  }));
}

const CODEC_OPTIONS = [
  "codecs",
  "filters",
  "serializer",
  "compressors",
  "compressor",
  "order",
] as const;

/**
 * The creation options that reproduce an array's layout: shape, data type, chunks (and
 * shards), codecs, fill value, dimension names and chunk key encoding. Codecs and key
 * encodings are only taken when the format stays the same and `overrides` gives no codec
 * option of its own. Attributes are not taken.
 */
export function optionsLike(source: ArraySource, overrides: LikeOptions = {}): ArrayOptions {
  if (!(source instanceof ZarrArray)) {
    const dtype =
      overrides.dtype ??
      source.dtype ??
      (source.data ? dataTypeOfContainer(source.data) : "float64");
    return { ...overrides, shape: overrides.shape ?? source.shape, dtype };
  }
  const meta = source.metadata;
  const format = overrides.zarrFormat ?? meta.zarrFormat;
  const base: ArrayOptions = { shape: meta.shape, dtype: meta.dataType, zarrFormat: format };
  if (meta.fillValueJson !== null) base.fillValue = meta.fillValue;
  else if (format === 2) base.fillValue = null;
  if (format === 3 && meta.dimensionNames) base.dimensionNames = meta.dimensionNames;
  const ownCodecs = CODEC_OPTIONS.some((key) => overrides[key] !== undefined);
  const sharding = shardingOf(meta);
  if (format === meta.zarrFormat && !ownCodecs) {
    if (sharding && (overrides.chunks || overrides.shards)) {
      base.chunks = sharding.chunkShape;
      base.shards = chunksOptionOf(meta.chunkGrid);
      base.codecs = (sharding.configuration.codecs as JsonObject[]).map((c) => c as CodecSpec);
    } else if (meta.chunkGrid.name !== "regular" && !overrides.chunks) {
      base.chunkGrid = meta.chunkGrid.toJson();
      base.codecs = codecSpecs(meta.codecs);
    } else {
      base.chunks = meta.chunkGrid.chunkShape;
      base.codecs = codecSpecs(meta.codecs);
    }
    if (format === 3) {
      const { name, separator } = meta.chunkKeyEncoding;
      if (name === "default" || name === "v2") base.chunkKeyEncoding = { name, separator };
    } else {
      base.dimensionSeparator = meta.v2?.dimensionSeparator ?? ".";
    }
  } else {
    const grid = meta.chunkGrid;
    if (sharding) base.chunks = sharding.chunkShape;
    else if (grid.chunkShape) base.chunks = grid.chunkShape;
    else if (format === 3 && !overrides.chunks) base.chunkGrid = grid.toJson();
    if (sharding && format === 3) base.shards = chunksOptionOf(grid);
    // The byte order survives a change of format (it is the dtype's in v2, the codec's in v3).
    const bytes = meta.codecs.find((c) => c.name === "bytes");
    if (!ownCodecs && bytes?.configuration.endian === "big")
      base.serializer = { name: "bytes", configuration: { endian: "big" } };
  }
  return { ...base, ...definedOnly(overrides) };
}

function definedOnly<T extends object>(options: T): Partial<T> {
  return Object.fromEntries(
    Object.entries(options).filter(([, v]) => v !== undefined),
  ) as Partial<T>;
}

/**
 * An array of zeros with the layout of `source`: shape, data type, chunks (and shards), codecs,
 * fill value, dimension names and chunk key encoding; `options` overrides any of them.
 */
export function zerosLike(
  store: StoreLike,
  source: ArraySource,
  options: LikeOptions = {},
): Promise<ZarrArray> {
  return createArray(store, { ...optionsLike(source, options), fillValue: 0 });
}

/** An array of ones like `source`. */
export function onesLike(
  store: StoreLike,
  source: ArraySource,
  options: LikeOptions = {},
): Promise<ZarrArray> {
  return createArray(store, { ...optionsLike(source, options), fillValue: 1 });
}

/** An array filled with `options.fillValue` like `source`. */
export function fullLike(
  store: StoreLike,
  source: ArraySource,
  options: LikeOptions & { fillValue: unknown },
): Promise<ZarrArray> {
  return createArray(store, optionsLike(source, options));
}

/** An uninitialised array like `source` (its elements read as the source's fill value). */
export function emptyLike(
  store: StoreLike,
  source: ArraySource,
  options: LikeOptions = {},
): Promise<ZarrArray> {
  return createArray(store, optionsLike(source, options));
}

function nestedShape(value: unknown[]): number[] {
  const shape: number[] = [];
  let level: unknown = value;
  while (Array.isArray(level)) {
    shape.push(level.length);
    level = level[0];
  }
  return shape;
}

function toNdValue(data: Exclude<ArrayData, ZarrArray>): {
  value: NdValue | unknown[];
  shape: number[];
  sample: Container;
} {
  if (isTypedArray(data))
    return { value: { data, shape: [data.length] }, shape: [data.length], sample: data };
  if (Array.isArray(data)) {
    const shape = nestedShape(data);
    return { value: data, shape, sample: data.flat(Math.max(0, shape.length - 1)) as unknown[] };
  }
  const nd = data as NdValue;
  if (!nd || !("data" in nd) || !Array.isArray(nd.shape)) {
    throw new ValueShapeError(
      "fromArray takes a ZarrArray, {data, shape, stride?}, a TypedArray or nested arrays",
    );
  }
  return { value: nd, shape: [...nd.shape], sample: nd.data };
}

/**
 * Creates an array from data and writes it. From a {@link ZarrArray}: the layout, fill value and
 * attributes are taken from it (`options` overrides any of them) and the
 * elements are copied chunk by chunk, a bounded number at a time, so memory stays bounded;
 * when the layout is unchanged the stored chunks are copied as bytes, without decoding. From
 * in-memory data: the shape is the data's, the data type is `options.dtype` or the one the
 * container implies.
 *
 * ```ts
 * const copy = await fromArray(otherStore, source, { path: "copy", compressors: [{ name: "gzip" }] });
 * const small = await fromArray(store, { data: Int16Array.of(1, 2, 3, 4), shape: [2, 2] }, { path: "small" });
 * ```
 */
export async function fromArray(
  store: StoreLike,
  data: ArrayData,
  options: FromArrayOptions = {},
): Promise<ZarrArray> {
  const { concurrency, onProgress, ...rest } = options;
  if (data instanceof ZarrArray) {
    // Checked before anything is created, so a bad shape leaves the store as it was.
    if (rest.shape !== undefined && !sameShape(rest.shape, data.shape)) {
      throw new MetadataError(
        `fromArray cannot change the shape: the source /${data.path} is [${data.shape}], the shape asked for [${rest.shape}]`,
      );
    }
    const target = await createArray(store, { attributes: data.attrs, ...optionsLike(data, rest) });
    await copyArrayElements(data, target, { concurrency, onProgress, signal: options.signal });
    return target;
  }
  const { value, shape, sample } = toNdValue(data);
  const target = await createArray(store, {
    ...rest,
    shape: rest.shape ?? shape,
    dtype: rest.dtype ?? dataTypeOfContainer(sample),
  });
  if (product(target.shape) > 0) {
    await target.set(
      target.shape.map(() => null),
      value as NdValue,
      { signal: options.signal, concurrency },
    );
  }
  onProgress?.({ done: 1, total: 1 });
  return target;
}
