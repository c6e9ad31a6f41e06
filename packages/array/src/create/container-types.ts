import type { BoolArray, Container } from "@z/ndarray";
import type { NUMPY_TYPE_CODES, NUMPY_TYPE_NAMES } from "./numpy-dtype-aliases.js";

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
  /** The registered small floats decode to float32 values (exactly representable there). */
  bfloat16: Float32Array;
  float8_e3m4: Float32Array;
  float8_e4m3: Float32Array;
  float8_e5m2: Float32Array;
  float8_e4m3fnuz: Float32Array;
  float8_e4m3b11fnuz: Float32Array;
  float8_e5m2fnuz: Float32Array;
  float8_e8m0fnu: Float32Array;
  float6_e2m3fn: Float32Array;
  float6_e3m2fn: Float32Array;
  float4_e2m1fn: Float32Array;
  /** Sub-byte integers, one per byte. */
  int2: Int8Array;
  int4: Int8Array;
  uint2: Uint8Array;
  uint4: Uint8Array;
  /** Variable-length strings (with `@z/dtypes-vlen`). */
  string: string[];
  /** Variable-length bytes (with `@z/dtypes-vlen`). */
  bytes: Uint8Array[];
}

/**
 * The container of a data type given by name: a Zarr v3 name, a NumPy name (`"double"`) or
 * type code (`"d"`, `"f8"`); the general {@link Container} for others.
 */
export type ContainerOf<D> = D extends keyof ContainerByName
  ? ContainerByName[D]
  : D extends keyof typeof NUMPY_TYPE_NAMES
    ? (typeof NUMPY_TYPE_NAMES)[D] extends keyof ContainerByName
      ? ContainerByName[(typeof NUMPY_TYPE_NAMES)[D]]
      : Container
    : D extends keyof typeof NUMPY_TYPE_CODES
      ? (typeof NUMPY_TYPE_CODES)[D] extends keyof ContainerByName
        ? ContainerByName[(typeof NUMPY_TYPE_CODES)[D]]
        : Container
      : Container;
