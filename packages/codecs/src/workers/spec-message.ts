import { type JsonValue, resolveDataTypeV3 } from "@z/metadata";
import { isTypedArray } from "@z/ndarray";
import type { ChunkSpec } from "../types.js";

/**
 * A chunk spec as a worker receives it: structured-clone data, never JSON, so that what a
 * worker builds is exactly what the calling thread has. The fill value travels as the stored
 * bytes of one element rather than as metadata JSON: JSON cannot hold a BigInt, the sign of
 * -0, or a NaN's payload, and int64 fills such as -2^63 (NumPy's NaT) are ordinary data.
 */
export interface ChunkSpecMessage {
  /** The chunk shape. */
  shape: number[];
  /** The data type's v3 `data_type` value (a name, or an object for parameterised types). */
  dataType: JsonValue;
  /** The fill value as one element's stored bytes, little-endian. */
  fill: Uint8Array;
}

/**
 * The message form of a chunk spec. Only specs whose container is a TypedArray have one: their
 * chunks are the ones that cross to a worker (see {@link decodableInWorker}).
 */
export function specToMessage(spec: ChunkSpec): ChunkSpecMessage {
  const { dataType } = spec;
  const one = dataType.create(1);
  dataType.fill(one, spec.fillValue);
  return {
    shape: [...spec.shape],
    dataType: dataType.toV3(),
    fill: dataType.encode(one, "little").slice(),
  };
}

/**
 * The chunk spec a message describes, with the data type from this thread's registry.
 * @throws UnknownDataTypeError when this thread has no such data type registered
 */
export function specFromMessage(message: ChunkSpecMessage): ChunkSpec {
  const where = "a chunk spec sent to a codec worker";
  const dataType = resolveDataTypeV3(message.dataType, where);
  const fillValue = dataType.getElement(dataType.decode(message.fill, 1, "little"), 0);
  return { shape: [...message.shape], dataType, fillValue };
}

/**
 * Whether chunks of this spec can be decoded in a worker: their container must be a TypedArray
 * (its buffer crosses threads whole); plain arrays of objects or strings are decoded inline.
 */
export function decodableInWorker(spec: ChunkSpec): boolean {
  return isTypedArray(spec.dataType.create(0));
}
