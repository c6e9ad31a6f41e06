import { MetadataError } from "@z/metadata";
import { type Container, isTypedArray, product } from "@z/ndarray";
import { normalizePath, type StoreLike } from "@z/store-core";
import { copyNode } from "../copy/copy-node.js";
import { copyArrayOptionsWith } from "../copy/copy-overrides.js";
import { ValueShapeError } from "../errors.js";
import type { Progress } from "../io/chunk-access.js";
import { ZarrArray } from "../nodes/array.js";
import { createArray } from "../write/create-nodes.js";
import { type NdValue, sameShape } from "../write/values.js";
import { type ArraySource, dataTypeOfContainer, type LikeOptions } from "./options-like.js";
import {
  type CreationOptions,
  emptyLikeOptions,
  emptyOptions,
  fullLikeOptions,
  fullOptions,
  onesLikeOptions,
  onesOptions,
  zerosLikeOptions,
  zerosOptions,
} from "./shorthand-options.js";

export type { CreationOptions } from "./shorthand-options.js";

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
export function zeros(store: StoreLike | string, options: CreationOptions): Promise<ZarrArray> {
  return createArray(store, zerosOptions(options));
}

/** Creates an array whose elements all read as one (the fill value). */
export function ones(store: StoreLike | string, options: CreationOptions): Promise<ZarrArray> {
  return createArray(store, onesOptions(options));
}

/** Creates an array whose elements all read as `fillValue`. */
export function full(
  store: StoreLike | string,
  options: CreationOptions & { fillValue: unknown },
): Promise<ZarrArray> {
  return createArray(store, fullOptions(options));
}

/**
 * Creates an array without initialising it. In Zarr, unwritten elements read as the fill value
 * (the data type's default, or the one given), so this is `full` with an optional fill value.
 */
export function empty(
  store: StoreLike | string,
  options: CreationOptions & { fillValue?: unknown },
): Promise<ZarrArray> {
  return createArray(store, emptyOptions(options));
}

/** An array of zeros with the shape, data type, chunks and codecs of `source` (see {@link LikeOptions}). */
export function zerosLike(
  store: StoreLike | string,
  source: ArraySource,
  options: LikeOptions = {},
): Promise<ZarrArray> {
  return createArray(store, zerosLikeOptions(source, options));
}

/** An array of ones like `source`. */
export function onesLike(
  store: StoreLike | string,
  source: ArraySource,
  options: LikeOptions = {},
): Promise<ZarrArray> {
  return createArray(store, onesLikeOptions(source, options));
}

/** An array filled with `options.fillValue` like `source`. */
export function fullLike(
  store: StoreLike | string,
  source: ArraySource,
  options: LikeOptions & { fillValue: unknown },
): Promise<ZarrArray> {
  return createArray(store, fullLikeOptions(source, options));
}

/** An uninitialised array like `source` (its elements read as the source's fill value). */
export function emptyLike(
  store: StoreLike | string,
  source: ArraySource,
  options: LikeOptions = {},
): Promise<ZarrArray> {
  return createArray(store, emptyLikeOptions(source, options));
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
 * attributes are taken from it as {@link copyNode} and `zarr copy` take them, into the format
 * `options.zarrFormat` asks for (see {@link copyArrayOptions}: v2 object arrays become v3
 * strings, bytes or objects, numcodecs codecs take their v3 names, ...); `options` overrides
 * any part. The elements are copied chunk by chunk, a bounded number at a time, so memory stays
 * bounded; when the layout is unchanged the stored chunks are copied as bytes, without
 * decoding. Like every copy it is all or nothing: a copy that fails removes what it wrote. From
 * in-memory data: the shape is the data's, the data type is `options.dtype` or the one the
 * container implies: its TypedArray's (a BoolArray's is bool), or for plain arrays bool (all
 * booleans), int64 (all bigints), string (all strings), else float64.
 *
 * ```ts
 * const copy = await fromArray(otherStore, source, { path: "copy", compressors: [{ name: "gzip" }] });
 * const small = await fromArray(store, { data: Int16Array.of(1, 2, 3, 4), shape: [2, 2] }, { path: "small" });
 * ```
 */
export async function fromArray(
  store: StoreLike | string,
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
    const copied = await copyNode(data, store, {
      path: normalizePath(rest.path),
      overwrite: rest.overwrite,
      arrayOptions: () => copyArrayOptionsWith(data, rest),
      concurrency,
      signal: options.signal,
      onProgress: onProgress && ((_: ZarrArray, progress: Progress) => onProgress(progress)),
    });
    return copied.arrays[0];
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
