import type { WriteSource } from "@z/indexing";
import { type DataType, ValueTypeError } from "@z/metadata";
import { type Container, cOrderStrides, isTypedArray, product } from "@z/ndarray";
import { ValueShapeError } from "../errors.js";

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

/** The n-d index of flat (C-order) position `flat` in `shape`. */
function unravel(flat: number, shape: readonly number[]): number[] {
  const index = new Array<number>(shape.length);
  let rest = flat;
  for (let d = shape.length - 1; d >= 0; d--) {
    index[d] = rest % shape[d];
    rest = Math.floor(rest / shape[d]);
  }
  return index;
}

/**
 * The items converted into the data type's container, each checked by `coerce`. One
 * try/catch around a tight loop: the index is worked out only for the error.
 * @throws ValueTypeError naming the first item that does not fit and its index in `shape`
 */
function coerceAll(
  items: ArrayLike<unknown>,
  dataType: DataType,
  shape: readonly number[] = [items.length],
): Container {
  const n = items.length;
  const data = dataType.create(n);
  let i = 0;
  try {
    for (; i < n; i++) dataType.setElement(data, i, dataType.coerce(items[i]));
  } catch (error) {
    if (error instanceof ValueTypeError) throw error.at(unravel(i, shape));
    throw error;
  }
  return data;
}

/**
 * A container a value may be given as without an element-by-element check: a TypedArray,
 * when the data type's own container is one (TypedArray assignment converts it, the
 * documented fast path). Types held in plain arrays (variable-length strings, say) check
 * each element of a TypedArray too.
 */
function asContainer(data: Container, dataType: DataType, shape?: readonly number[]): Container {
  if (Array.isArray(data)) return coerceAll(data, dataType, shape);
  if (isTypedArray(dataType.create(0))) return data;
  return coerceAll(data, dataType, shape);
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

function isNdValue(value: object): value is NdValue {
  return "data" in value && "shape" in value;
}

/**
 * Resolves a value passed to `set` against the selection's shape, checking every element
 * before anything is written.
 * @throws ValueTypeError when a scalar, or an element of a plain array, does not fit the
 *   data type (the error names its index)
 * @throws ValueShapeError when its shape, length or strides do not match, or its element
 *   kind cannot be stored in the array's data type
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
    let data: Container;
    if (Array.isArray(value) && value.some(Array.isArray)) {
      const nested = flattenNested(value);
      if (!sameShape(nested.shape, shape)) throw shapeMismatch(nested.shape, shape);
      data = coerceAll(nested.items, dataType, nested.shape);
    } else {
      data = asContainer(value as Container, dataType);
    }
    if (data.length !== n * dataType.lanes) {
      throw new ValueShapeError(
        `The value has ${data.length / dataType.lanes} elements; the selection [${shape}] has ${n}`,
      );
    }
    checkElementKind(data, dataType);
    return { chunk: { data, shape: [...shape], stride: cOrderStrides(shape) } };
  }
  // Any other object is one element (the data type's coerce says whether it fits).
  if (!isNdValue(value)) return { scalar: dataType.coerce(value) };
  return { chunk: resolveNdValue(value, shape, dataType) };
}

function resolveNdValue(nd: NdValue, shape: readonly number[], dataType: DataType) {
  if (!Array.isArray(nd.shape) || !nd.shape.every(isCount)) {
    throw new ValueShapeError("A value's shape must be an array of non-negative integers");
  }
  if (!sameShape(nd.shape, shape)) throw shapeMismatch(nd.shape, shape);
  if (!isTypedArray(nd.data) && !Array.isArray(nd.data)) {
    throw new ValueShapeError("A value's data must be a TypedArray or an array of elements");
  }
  if (nd.stride !== undefined && !Array.isArray(nd.stride)) {
    throw new ValueShapeError("A value's stride must be an array of integers");
  }
  const stride = nd.stride === undefined ? cOrderStrides(nd.shape) : [...nd.stride];
  if (stride.length !== nd.shape.length) {
    throw new ValueShapeError(
      `The value has ${nd.shape.length} dimensions but ${stride.length} strides [${stride}]`,
    );
  }
  if (!stride.every(isCount)) {
    throw new ValueShapeError(`A value's strides must be non-negative integers, got [${stride}]`);
  }
  const data = asContainer(nd.data, dataType);
  checkElementKind(data, dataType);
  checkExtent(data, nd.shape, stride, dataType.lanes);
  return { data, shape: [...nd.shape], stride };
}

const isCount = (n: unknown): n is number => Number.isSafeInteger(n) && (n as number) >= 0;

function checkExtent(
  data: Container,
  shape: readonly number[],
  stride: readonly number[],
  lanes: number,
): void {
  if (shape.some((n) => n === 0)) return;
  let last = 0;
  shape.forEach((n, i) => {
    last += (n - 1) * stride[i];
  });
  if ((last + 1) * lanes > data.length) {
    throw new ValueShapeError(
      `The value's shape [${shape}] and strides [${stride}] reach past its ${data.length / lanes} elements`,
    );
  }
}

/** Whether two shapes are equal, axis by axis. */
export function sameShape(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((n, i) => n === b[i]);
}

function shapeMismatch(valueShape: readonly number[], shape: readonly number[]): ValueShapeError {
  return new ValueShapeError(
    `The value has shape [${valueShape}] but the selection has shape [${shape}]`,
  );
}
