import type { BoolArray, Container } from "@z/metadata";

/** The container each built-in data type name reads into. */
export interface ContainerByName {
  bool: BoolArray;
  int8: Int8Array;
  int16: Int16Array;
  int32: Int32Array;
  int64: BigInt64Array;
  uint8: Uint8Array;
  uint16: Uint16Array;
  uint32: Uint32Array;
  uint64: BigUint64Array;
  /** Float16Array where the runtime has it; a Float32Array otherwise. */
  float16: Float32Array;
  float32: Float32Array;
  float64: Float64Array;
  /** Variable-length strings (with `@z/dtypes-vlen`). */
  string: string[];
  /** Variable-length bytes (with `@z/dtypes-vlen`). */
  bytes: Uint8Array[];
}

/** The container of a data type given by name; the general {@link Container} for others. */
export type ContainerOf<D> = D extends keyof ContainerByName ? ContainerByName[D] : Container;
