import { isTypedArray, type JsonValue, resolveDataTypeV3 } from "@z/metadata";
import type { ChunkSpec } from "../types.js";

/** A chunk spec as plain data that can be posted to a worker. */
export interface ChunkSpecJson {
  /** The chunk shape. */
  shape: number[];
  /** The data type's v3 `data_type` JSON. */
  dataType: JsonValue;
  /** The fill value's v3 JSON form. */
  fillValue: JsonValue;
}

/** The plain-data form of a chunk spec. */
export function specToJson(spec: ChunkSpec): ChunkSpecJson {
  return {
    shape: [...spec.shape],
    dataType: spec.dataType.toV3(),
    fillValue: spec.dataType.fillToJson(spec.fillValue, 3),
  };
}

/**
 * The chunk spec a plain-data form describes, with the data type from this thread's registry.
 * @throws UnknownDataTypeError when this thread has no such data type registered
 */
export function specFromJson(json: ChunkSpecJson): ChunkSpec {
  const dataType = resolveDataTypeV3(json.dataType, "a chunk spec sent to a codec worker");
  return { shape: [...json.shape], dataType, fillValue: dataType.parseFill(json.fillValue, 3) };
}

/**
 * Whether chunks of this spec can be decoded in a worker: their container must be a TypedArray
 * (its buffer crosses threads whole); plain arrays of objects or strings are decoded inline.
 */
export function decodableInWorker(spec: ChunkSpec): boolean {
  return isTypedArray(spec.dataType.create(0));
}
