import type { Chunk } from "@z/ndarray";
import { SelectionError } from "./errors.js";
import { normalizeIndex } from "./selection-index.js";

/** Integer indices along one axis: a plain array or any integer TypedArray. */
export type IndexArray =
  | readonly number[]
  | Int8Array
  | Int16Array
  | Int32Array
  | Uint8Array
  | Uint16Array
  | Uint32Array
  | BigInt64Array;

/** A boolean mask along one axis: booleans, or a BoolArray (a Uint8Array subclass of 0/1). */
export type AxisMask = readonly boolean[] | (Uint8Array & { toBooleans(): boolean[] });

/** Whether a value is a boolean mask (an array of booleans or a BoolArray). */
export function isAxisMask(value: unknown): value is AxisMask {
  if (value instanceof Uint8Array)
    return typeof (value as { toBooleans?: unknown }).toBooleans === "function";
  return Array.isArray(value) && value.length > 0 && typeof value[0] === "boolean";
}

/** Whether a value is an array of integer indices. */
export function isIndexArray(value: unknown): value is IndexArray {
  if (isAxisMask(value)) return false;
  if (ArrayBuffer.isView(value))
    return !(
      value instanceof Float32Array ||
      value instanceof Float64Array ||
      value instanceof DataView
    );
  return Array.isArray(value) && value.every((v) => typeof v === "number" || typeof v === "bigint");
}

/**
 * Resolves integer indices against an axis: negative ones wrap, each is bounds-checked.
 * @throws BoundsError, SelectionError (non-integers)
 */
export function resolveIndexArray(indices: IndexArray, length: number, axis: number): Int32Array {
  const out = new Int32Array(indices.length);
  for (let i = 0; i < indices.length; i++) {
    const raw = indices[i];
    const value = typeof raw === "bigint" ? Number(raw) : (raw as number);
    out[i] = normalizeIndex(value, length, axis);
  }
  return out;
}

/**
 * The indices where a mask along one axis is true.
 * @throws SelectionError when the mask's length is not the axis length
 */
export function maskIndices(mask: AxisMask, length: number, axis: number): Int32Array {
  if (mask.length !== length) {
    throw new SelectionError(
      `Axis ${axis}: a boolean mask of length ${mask.length} does not fit an axis of size ${length}`,
    );
  }
  const out: number[] = [];
  for (let i = 0; i < mask.length; i++) if (mask[i]) out.push(i);
  return Int32Array.from(out);
}

/** An n-d boolean mask: `{data, shape}` (data: booleans or a BoolArray / Uint8Array of 0/1) or nested arrays. */
export type Mask =
  | Chunk
  | { data: ArrayLike<boolean | number>; shape: readonly number[] }
  | readonly unknown[];

/**
 * The C-order positions where an n-d mask is true, as one coordinate list per axis.
 * @throws SelectionError when the mask's shape is not the array's
 */
export function maskCoordinates(mask: Mask, shape: readonly number[]): Int32Array[] {
  const { data, maskShape } = flattenMask(mask);
  if (maskShape.length !== shape.length || maskShape.some((n, i) => n !== shape[i])) {
    throw new SelectionError(
      `A mask of shape [${maskShape}] does not fit an array of shape [${shape}]`,
    );
  }
  let count = 0;
  for (let i = 0; i < data.length; i++) if (data[i]) count++;
  const coords = shape.map(() => new Int32Array(count));
  let k = 0;
  for (let flat = 0; flat < data.length; flat++) {
    if (!data[flat]) continue;
    let rest = flat;
    for (let axis = shape.length - 1; axis >= 0; axis--) {
      coords[axis][k] = rest % shape[axis];
      rest = Math.floor(rest / shape[axis]);
    }
    k++;
  }
  return coords;
}

function flattenMask(mask: Mask): { data: ArrayLike<unknown>; maskShape: readonly number[] } {
  if (Array.isArray(mask)) {
    const shape: number[] = [];
    let level: unknown = mask;
    while (Array.isArray(level)) {
      shape.push(level.length);
      level = level[0];
    }
    const data = (mask as unknown[]).flat(Math.max(0, shape.length - 1) as 1);
    if (data.length !== shape.reduce((a, b) => a * b, 1))
      throw new SelectionError("A nested mask must be rectangular");
    return { data, maskShape: shape };
  }
  const m = mask as {
    data: ArrayLike<unknown>;
    shape: readonly number[];
    stride?: readonly number[];
  };
  const n = m.shape.reduce((a, b) => a * b, 1);
  if (m.data.length !== n)
    throw new SelectionError(
      `A mask of shape [${m.shape}] needs ${n} elements, it has ${m.data.length}`,
    );
  return { data: m.data, maskShape: m.shape };
}

/** Checks that coordinate lists have one list per axis and equal lengths. */
export function checkCoordinateLists(lists: readonly unknown[], ndim: number): void {
  if (lists.length !== ndim) {
    throw new SelectionError(
      `A coordinate selection needs one index list per dimension (${ndim}), got ${lists.length}`,
    );
  }
}
