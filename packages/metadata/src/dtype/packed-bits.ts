import type { DataType } from "./types.js";

/** How the `packbits` codec sees the elements of a data type. */
export interface PackedComponents {
  /** Bits of one component as the data type defines it (`N` in the packbits spec). */
  bits: number;
  /** Components per element: 2 for complex types, 1 otherwise. */
  components: number;
  /** Bytes one component takes in the `bytes` codec's little-endian form. */
  bytes: number;
  /** Whether decoded components are sign-extended (signed integer types). */
  signed: boolean;
}

/** Types narrower than their stored byte(s): the bits the registry gives them. */
const NARROW_BITS: Readonly<Record<string, number>> = {
  bool: 1,
  int2: 2,
  uint2: 2,
  int4: 4,
  uint4: 4,
  float4_e2m1fn: 4,
  float6_e2m3fn: 6,
  float6_e3m2fn: 6,
  complex_float4_e2m1fn: 4,
  complex_float6_e2m3fn: 6,
  complex_float6_e3m2fn: 6,
};

/**
 * The bit layout the `packbits` codec uses for a data type: sub-byte types at their own width,
 * other fixed-size numeric types (integers, floats, complex) at the full width of their
 * little-endian components. `undefined` for types packbits cannot store (strings, records,
 * datetimes, raw bytes, variable-length types).
 */
export function packedComponentsOf(dataType: DataType): PackedComponents | undefined {
  const numeric =
    dataType.kind === "bool" ||
    dataType.kind === "int" ||
    dataType.kind === "uint" ||
    dataType.kind === "float" ||
    dataType.kind === "complex";
  if (!numeric || dataType.itemSize === 0) return undefined;
  const components = dataType.kind === "complex" ? 2 : 1;
  const bytes = dataType.itemSize / components;
  if (!Number.isInteger(bytes)) return undefined;
  return {
    bits: NARROW_BITS[dataType.name] ?? bytes * 8,
    components,
    bytes,
    signed: dataType.kind === "int",
  };
}
