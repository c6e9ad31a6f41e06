import {
  type Container,
  BoolArray as ZBoolArray,
  type Chunk as ZChunk,
  type DataType as ZDataType,
} from "@z/zarr";
import type { DataType } from "./data-types.js";
import { BoolArray, ByteStringArray, UnicodeStringArray } from "./typedarray.js";

/** The runtime's Float16Array, where its TypeScript library declares one. */
export type Float16ArrayOfRuntime = InstanceType<
  typeof globalThis extends {
    Float16Array: infer F extends abstract new (...args: never) => unknown;
  }
    ? F
    : never
>;

/** What zarrita holds the elements of a data type in. */
// biome-ignore format: one data type per line reads best
export type TypedArray<D extends DataType> =
  D extends "int8" ? Int8Array
  : D extends "int16" ? Int16Array
  : D extends "int32" ? Int32Array
  : D extends "int64" ? BigInt64Array
  : D extends "uint8" ? Uint8Array
  : D extends "uint16" ? Uint16Array
  : D extends "uint32" ? Uint32Array
  : D extends "uint64" ? BigUint64Array
  : D extends "float16" ? Float16ArrayOfRuntime
  : D extends "float32" ? Float32Array
  : D extends "float64" ? Float64Array
  : D extends "bool" ? BoolArray
  : D extends `v2:U${number}` ? UnicodeStringArray
  : D extends `v2:S${number}` ? ByteStringArray
  : D extends "string" ? string[]
  : D extends "v2:object" ? unknown[]
  : unknown;

/** An n-d array in memory as zarrita returns it: the elements, shape and element strides. */
export interface Chunk<D extends DataType = DataType> {
  /** The elements, in the container of the data type. */
  data: TypedArray<D>;
  /** The extent of each dimension. */
  shape: number[];
  /** How many elements apart consecutive entries of each dimension are. */
  stride: number[];
}

/** One element as zarrita hands it out. */
export type Scalar<D extends DataType> = D extends "bool"
  ? boolean
  : D extends "int64" | "uint64"
    ? bigint
    : D extends `v2:${"U" | "S"}${number}` | "string"
      ? string
      : D extends "v2:object"
        ? unknown
        : number;

type Float16Constructor = new (values: ArrayLike<number> | number) => ArrayLike<number>;

function float16Class(): Float16Constructor | undefined {
  return (globalThis as { Float16Array?: Float16Constructor }).Float16Array;
}

function fixedWidth(dtype: DataType): number | undefined {
  const match = /^v2:[US](\d+)$/.exec(dtype);
  return match ? Number(match[1]) : undefined;
}

/** A container of the `@z` stack as zarrita's container of the same elements (a view, no copy). */
export function toZarritaData(dtype: DataType, dataType: ZDataType, data: Container): unknown {
  const chars = fixedWidth(dtype);
  if (chars !== undefined && ArrayBuffer.isView(data)) {
    const count =
      chars === 0 ? 0 : data.byteLength / (dtype.startsWith("v2:U") ? 4 * chars : chars);
    return dtype.startsWith("v2:U")
      ? new UnicodeStringArray(chars, data.buffer, data.byteOffset, count)
      : new ByteStringArray(chars, data.buffer, data.byteOffset, count);
  }
  if (dtype === "bool" && data instanceof Uint8Array) {
    return new BoolArray(data.buffer, data.byteOffset, data.length);
  }
  if (dtype === "float16") {
    const F16 = float16Class();
    if (F16 !== undefined && !(data instanceof F16)) {
      const length = dataType.lanes === 1 ? (data as ArrayLike<unknown>).length : 0;
      const values = Array.from({ length }, (_, i) => dataType.getElement(data, i) as number);
      return new F16(values);
    }
  }
  return data;
}

/** zarrita's container (or any array-like) as the `@z` stack's container of `dataType`. */
export function fromZarritaData(dataType: ZDataType, data: unknown): Container {
  if (data instanceof BoolArray) {
    return new ZBoolArray(data.buffer as ArrayBuffer, data.byteOffset, data.byteLength);
  }
  if (data instanceof ByteStringArray) {
    return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  }
  if (data instanceof UnicodeStringArray) {
    return new Uint32Array(data.buffer, data.byteOffset, data.byteLength / 4);
  }
  const F16 = float16Class();
  if (F16 !== undefined && data instanceof F16 && dataType.name === "float16") {
    const values = data as ArrayLike<number>;
    const out = dataType.create(values.length);
    for (let i = 0; i < values.length; i++) dataType.setElement(out, i, values[i]);
    return out;
  }
  return data as Container;
}

/** A chunk of the `@z` stack as zarrita's chunk. */
export function toZarritaChunk<D extends DataType>(
  dtype: D,
  dataType: ZDataType,
  chunk: ZChunk,
): Chunk<D> {
  return {
    data: toZarritaData(dtype, dataType, chunk.data) as TypedArray<D>,
    shape: chunk.shape,
    stride: chunk.stride,
  };
}
