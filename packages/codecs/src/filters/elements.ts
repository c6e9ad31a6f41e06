import type { DataType } from "@z/metadata";
import type { Chunk, Container } from "@z/ndarray";
import { cOrderStrides, product, toCOrder } from "@z/ndarray";
import { DecodeError } from "../errors.js";
import type { ChunkSpec } from "../types.js";
import { converter, isBigIntType, type NumericType, type Scalar } from "./numpy-types.js";

/** A numeric container read and written by index (TypedArrays, BoolArray). */
export type Elements = { [index: number]: Scalar; readonly length: number };

/**
 * The elements of a chunk flattened in C order (numcodecs flattens with `reshape(-1)` the
 * C-contiguous chunks zarr hands it). Copies only when the chunk is a strided view.
 */
export function flatElements(chunk: Chunk, dataType: DataType): Elements {
  const ordered = toCOrder(chunk, (n) => dataType.create(n), dataType.lanes);
  return ordered.data as unknown as Elements;
}

/**
 * The C-order elements of a chunk handed to `decode`, checked to hold exactly `expected`
 * elements.
 * @throws DecodeError when the count differs
 */
export function encodedElements(
  chunk: Chunk,
  dataType: DataType,
  expected: number,
  codec: string,
): Elements {
  const count = product(chunk.shape);
  const data = flatElements(chunk, dataType);
  if (count !== expected || data.length < expected) {
    throw new DecodeError(
      `${codec}: the encoded chunk has ${Math.min(count, data.length)} elements; the chunk needs exactly ${expected}`,
    );
  }
  return data;
}

/** A C-order chunk of `shape` around a container. */
export function cOrderChunk(data: Container | Elements, shape: readonly number[]): Chunk {
  return { data: data as Container, shape: [...shape], stride: cOrderStrides(shape) };
}

/**
 * Converts `count` elements from one numeric type to another as NumPy's `astype` does, into
 * `out`. Uses `TypedArray.set` where its conversion is NumPy's (integers to wider or wrapping
 * integers, anything to float32/float64), otherwise converts element by element.
 */
export function convertElements(
  input: Elements,
  from: NumericType,
  out: Elements,
  to: NumericType,
  count: number,
): void {
  const sameSemantics =
    from.name === to.name ||
    (to.kind === "float" && to.bits >= 32 && !isBigIntType(from)) ||
    ((to.kind === "int" || to.kind === "uint") &&
      to.bits <= 32 &&
      from.kind !== "float" &&
      !isBigIntType(from));
  if (sameSemantics && ArrayBuffer.isView(input) && ArrayBuffer.isView(out)) {
    const source = (input as unknown as Uint8Array).subarray(0, count);
    (out as unknown as Uint8Array).set(source);
    return;
  }
  const convert = converter(from, to);
  for (let i = 0; i < count; i++) out[i] = convert(input[i]);
}

/**
 * A fill value converted through an element-wise filter: the fill value as a one-element
 * container, transformed by `encodeOne`, read back as the encoded type.
 */
export function convertFill(
  spec: ChunkSpec,
  encodedType: DataType,
  encodeOne: (input: Elements) => Elements,
): unknown {
  const input = spec.dataType.create(1);
  const fill = spec.fillValue ?? spec.dataType.defaultFill;
  try {
    spec.dataType.setElement(input, 0, spec.dataType.coerce(fill));
  } catch {
    spec.dataType.setElement(input, 0, spec.dataType.defaultFill);
  }
  const output = encodeOne(input as unknown as Elements);
  return encodedType.getElement(output as unknown as Container, 0);
}
