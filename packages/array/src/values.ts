import type { WriteSource } from "@z/indexing";
import { type Container, cOrderStrides, type DataType, isTypedArray, product } from "@z/metadata";
import { ValueShapeError } from "./errors.js";

/** An n-d value to write: `{data, shape, stride?}` (stride defaults to C order). */
export interface NdValue<C extends Container = Container> {
  /** The elements. */
  data: C;
  /** The shape; must equal the selection's shape. */
  shape: readonly number[];
  /** Element strides; C order when omitted. */
  stride?: readonly number[];
}

/** A scalar element value: a number, a bigint (64-bit integer types), a boolean or a string. */
export type Scalar = number | bigint | boolean | string;

/**
 * What `set` accepts: a scalar written to every selected element, an n-d value of the
 * selection's shape, a flat TypedArray or array of exactly as many elements (C order), or
 * nested arrays.
 */
export type SetValue =
  | Scalar
  | null
  | NdValue
  | Container
  | unknown[]
  | { readonly [field: string]: unknown };

function isBigIntArray(data: unknown): boolean {
  return data instanceof BigInt64Array || data instanceof BigUint64Array;
}

function checkElementKind(data: Container, dataType: DataType): void {
  if (!isTypedArray(data)) return;
  const wantsBig = isBigIntArray(dataType.create(0));
  if (wantsBig !== isBigIntArray(data)) {
    throw new ValueShapeError(
      `Cannot write a ${data.constructor.name} to a ${dataType.name} array: ` +
        (wantsBig
          ? "64-bit integer arrays take BigInt64Array/BigUint64Array values"
          : "pass numbers, not bigints"),
    );
  }
}

function coerceAll(items: readonly unknown[], dataType: DataType): Container {
  const data = dataType.create(items.length);
  for (let i = 0; i < items.length; i++) dataType.setElement(data, i, dataType.coerce(items[i]));
  return data;
}

function flattenNested(value: unknown[]): { items: unknown[]; shape: number[] } {
  const shape: number[] = [];
  let level: unknown = value;
  while (Array.isArray(level)) {
    shape.push(level.length);
    level = level[0];
  }
  const items = (value as unknown[]).flat((shape.length - 1) as 1) as unknown[];
  if (items.length !== product(shape) || items.some(Array.isArray)) {
    throw new ValueShapeError(
      "Nested arrays passed as a value must be rectangular (all rows the same length)",
    );
  }
  return { items, shape };
}

/**
 * Resolves a value passed to `set` against the selection's shape.
 * @throws ValueShapeError when its shape or length does not match, or its element kind
 *   cannot be stored in the array's data type
 */
export function resolveValue(
  value: SetValue,
  shape: readonly number[],
  dataType: DataType,
): WriteSource {
  const n = product(shape);
  // Element types whose scalars are objects (complex {re, im}, records, dates) say which values are one element.
  if (dataType.isScalar?.(value)) return { scalar: dataType.coerce(value) };
  if (typeof value !== "object" || value === null) return { scalar: dataType.coerce(value) };
  if (isTypedArray(value) || Array.isArray(value)) {
    let data: Container = value as Container;
    if (Array.isArray(value) && value.some(Array.isArray)) {
      const nested = flattenNested(value);
      data = coerceAll(nested.items, dataType);
      if (!sameShape(nested.shape, shape)) throw shapeMismatch(nested.shape, shape);
    } else if (Array.isArray(value)) {
      data = coerceAll(value, dataType);
    }
    if (data.length !== n * dataType.lanes) {
      throw new ValueShapeError(
        `The value has ${data.length / dataType.lanes} elements; the selection [${shape}] has ${n}`,
      );
    }
    checkElementKind(data, dataType);
    return { chunk: { data, shape: [...shape], stride: cOrderStrides(shape) } };
  }
  const nd = value as NdValue;
  if (!("data" in nd) || !Array.isArray(nd.shape)) {
    throw new ValueShapeError(
      "A value must be a scalar, an array of elements, or {data, shape, stride?}",
    );
  }
  if (!sameShape(nd.shape, shape)) throw shapeMismatch(nd.shape, shape);
  const data = Array.isArray(nd.data) ? coerceAll(nd.data, dataType) : nd.data;
  checkElementKind(data, dataType);
  const stride = nd.stride ? [...nd.stride] : cOrderStrides(nd.shape);
  checkExtent(data, nd.shape, stride, dataType.lanes);
  return { chunk: { data, shape: [...nd.shape], stride } };
}

function checkExtent(
  data: Container,
  shape: readonly number[],
  stride: readonly number[],
  lanes: number,
): void {
  if (shape.some((n) => n === 0)) return;
  let last = 0;
  shape.forEach((n, i) => {
    if (stride[i] < 0) throw new ValueShapeError("A value's strides must be non-negative");
    last += (n - 1) * stride[i];
  });
  if ((last + 1) * lanes > data.length) {
    throw new ValueShapeError(
      `The value's shape [${shape}] and strides [${stride}] reach past its ${data.length} elements`,
    );
  }
}

function sameShape(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((n, i) => n === b[i]);
}

function shapeMismatch(valueShape: readonly number[], shape: readonly number[]): ValueShapeError {
  return new ValueShapeError(
    `The value has shape [${valueShape}] but the selection has shape [${shape}]`,
  );
}
