import type { DataType } from "@z/metadata";
import type { Chunk } from "@z/ndarray";
import { product } from "@z/ndarray";
import type { Vector } from "apache-arrow";
import { ArrowDataType } from "./dtype.js";
import { coerceElement } from "./elements/coerce.js";
import { ArrowValueError } from "./errors.js";
import type { ArrowField } from "./field/model.js";
import { readIpcStream } from "./ipc/read-stream.js";
import { elementsToVector } from "./ipc/write-stream.js";
import { importArrow } from "./load-arrow.js";
import { nativeArrowField } from "./native.js";

/** An n-d array as an apache-arrow vector: the elements in C order, and the shape. */
export interface ArrowNdVector {
  /** The elements, flattened in C order. */
  vector: Vector;
  /** The shape (`[]` for one element, `[n]` for a 1-d array). */
  shape: number[];
}

/** What {@link readArrowVector} and {@link writeArrowVector} need of an array (a `ZarrArray` has it). */
export interface ArrowArrayLike<S> {
  /** The array's metadata: its data type. */
  readonly metadata: { readonly dataType: DataType };
  /** Reads a selection, elements in C order. */
  get(selection?: S, options?: { signal?: AbortSignal }): Promise<Chunk>;
  /** Writes an n-d value to a selection. */
  set(
    selection: S,
    value: { data: unknown[]; shape: number[] },
    options?: { signal?: AbortSignal },
  ): Promise<void>;
}

/**
 * The elements of an apache-arrow vector (any supported type, sliced or chunked, with
 * dictionaries) in the form the `arrow` data type holds them, with the vector's field. The vector
 * goes through Arrow IPC (apache-arrow writes it, this package's bounded reader reads it), so
 * every Arrow layout detail is handled once; it costs one copy.
 */
export async function arrowVectorElements(
  vector: Vector,
): Promise<{ field: ArrowField; elements: unknown[] }> {
  const A = await importArrow();
  const bytes = A.tableToIPC(new A.Table({ values: vector }), "stream");
  return readIpcStream(bytes, { expectedLength: vector.length, where: "the Arrow vector" });
}

function fieldOf(dataType: DataType): ArrowField {
  if (dataType instanceof ArrowDataType) return dataType.field;
  const field = nativeArrowField(dataType, "values");
  if (!field) throw new ArrowValueError(`Arrays of ${dataType.name} have no Arrow equivalent`);
  return field;
}

/**
 * An apache-arrow vector of elements of a data type: the `arrow` data type (elements as it
 * holds them), or a Zarr boolean, integer, float, string or bytes type (as the matching Arrow
 * type).
 * @throws ArrowValueError for an element that does not fit
 */
export async function arrowVectorFromElements(
  dataType: DataType,
  elements: ArrayLike<unknown>,
): Promise<Vector> {
  const A = await importArrow();
  const field = fieldOf(dataType);
  const items = Array.from({ length: elements.length }, (_, i) =>
    coerceElement(field, elements[i], `element ${i}`),
  );
  return elementsToVector(A, field, items);
}

/**
 * Reads a selection of an array as an apache-arrow vector (elements in C order) and its shape.
 *
 * ```ts
 * const { vector, shape } = await readArrowVector(arr, [slice(0, 2), null]);
 * ```
 */
export async function readArrowVector<S>(
  array: ArrowArrayLike<S>,
  selection?: S,
  options?: { signal?: AbortSignal },
): Promise<ArrowNdVector> {
  const result = await array.get(selection, options);
  const dataType = array.metadata.dataType;
  const n = product(result.shape);
  const elements = Array.from({ length: n }, (_, i) => dataType.getElement(result.data, i));
  return { vector: await arrowVectorFromElements(dataType, elements), shape: [...result.shape] };
}

/**
 * Writes an apache-arrow vector to a selection: a vector alone is a 1-d value of its length;
 * `{vector, shape}` gives an n-d value (elements in C order). Elements are checked against the
 * array's data type as `arr.set` checks any value.
 *
 * ```ts
 * await writeArrowVector(arr, [slice(0, 3)], vectorFromArray([[1], [2, 3], null]));
 * await writeArrowVector(grid, null, { vector: column, shape: [rows, cols] });
 * ```
 * @throws ArrowValueError when the vector's length does not match the shape
 */
export async function writeArrowVector<S>(
  array: ArrowArrayLike<S>,
  selection: S,
  value: Vector | ArrowNdVector,
  options?: { signal?: AbortSignal },
): Promise<void> {
  const nd =
    "vector" in value && "shape" in value
      ? value
      : { vector: value as Vector, shape: [value.length] };
  if (nd.vector.length !== product(nd.shape)) {
    throw new ArrowValueError(
      `The vector has ${nd.vector.length} elements; the shape [${nd.shape}] has ${product(nd.shape)}`,
    );
  }
  const { elements } = await arrowVectorElements(nd.vector);
  await array.set(selection, { data: elements, shape: [...nd.shape] }, options);
}
