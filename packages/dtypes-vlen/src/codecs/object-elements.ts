import { type ChunkSpec, DecodeError } from "@z/codecs";
import type { Container } from "@z/ndarray";
import { isObjectDataType } from "../dtype/object.js";

/**
 * Decoded elements as the container of the chunk's data type: the elements themselves for a
 * v2 object array, otherwise each one checked by the data type (a number in a string array is
 * a DecodeError).
 */
export function toContainer(elements: unknown[], spec: ChunkSpec, codec: string): Container {
  const { dataType } = spec;
  if (isObjectDataType(dataType)) return elements;
  const data = dataType.create(elements.length);
  for (let i = 0; i < elements.length; i++) {
    try {
      dataType.setElement(data, i, dataType.coerce(elements[i]));
    } catch (error) {
      throw new DecodeError(
        `${codec}: element ${i} does not fit the ${dataType.name} data type: ${(error as Error).message}`,
      );
    }
  }
  return data;
}

/** The NumPy dtype string numcodecs writes for a chunk of the spec (`|O` for object arrays). */
export function numpyDtypeOf(spec: ChunkSpec): string {
  const v2 = spec.dataType.toV2("little");
  return typeof v2 === "string" ? v2 : "|O";
}

/**
 * A chunk's elements as values (strings, numbers, booleans, bigints), read through the data
 * type so that any container works: plain arrays as they are, TypedArrays element by element.
 */
export function elementValues(data: ArrayLike<unknown>, spec: ChunkSpec): ArrayLike<unknown> {
  if (Array.isArray(data)) return data;
  const { dataType } = spec;
  const count = data.length / dataType.lanes;
  return Array.from({ length: count }, (_, i) => dataType.getElement(data as Container, i));
}
