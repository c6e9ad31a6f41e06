import type { DataType as ZDataType } from "@z/zarr";
import { UnsupportedError } from "./errors.js";

/** zarrita's numeric data types (float16 where the runtime has `Float16Array`). */
export type NumberDataType =
  | "int8"
  | "int16"
  | "int32"
  | "uint8"
  | "uint16"
  | "uint32"
  | "float16"
  | "float32"
  | "float64";

/** zarrita's 64-bit integer data types, read as BigInt64Array / BigUint64Array. */
export type BigintDataType = "int64" | "uint64";

/** zarrita's string data types: NumPy's fixed-width `U` and `S` (v2) and v3's `string`. */
export type StringDataType = `v2:U${number}` | `v2:S${number}` | "string";

/**
 * A data type as zarrita names it. At run time, data types zarrita does not know (complex
 * numbers, datetimes, structured types, ...) keep the `@z` stack's v3 name, and read as the
 * stack's containers.
 */
export type DataType = NumberDataType | BigintDataType | StringDataType | "v2:object" | "bool";

/** The kinds `Array.is` answers for, besides a data type's own name. */
export type DataTypeQuery = DataType | "number" | "bigint" | "boolean" | "string" | "object";

const SAME_NAME = new Set([
  "int8",
  "int16",
  "int32",
  "int64",
  "uint8",
  "uint16",
  "uint32",
  "uint64",
  "float16",
  "float32",
  "float64",
  "bool",
  "string",
]);

/** zarrita's name for a data type of the `@z` stack, in an array of `zarrFormat`. */
export function zarritaDataType(dataType: ZDataType, zarrFormat: 2 | 3): DataType {
  if (SAME_NAME.has(dataType.name)) {
    if (
      dataType.name === "float16" &&
      typeof (globalThis as { Float16Array?: unknown }).Float16Array !== "function"
    ) {
      throw new UnsupportedError("float16 arrays without globalThis.Float16Array");
    }
    return zarrFormat === 2 && dataType.name === "string"
      ? "v2:object"
      : (dataType.name as DataType);
  }
  const typestr = dataType.toV2("little");
  if (typeof typestr === "string") {
    const fixed = /^[<>|]([US])(\d+)$/.exec(typestr);
    if (fixed) return `v2:${fixed[1] as "U" | "S"}${Number(fixed[2])}`;
    if (typestr === "|O") return "v2:object";
  }
  return dataType.name as DataType;
}

/**
 * Whether a zarrita data type answers a query: its own name, or one of the kinds `"number"`,
 * `"bigint"`, `"boolean"`, `"string"`, `"object"`.
 */
export function isDataType(dtype: DataType, query: DataTypeQuery): boolean {
  const isBoolean = dtype === "bool";
  const isString = dtype === "string" || dtype.startsWith("v2:U") || dtype.startsWith("v2:S");
  const isBigint = dtype === "int64" || dtype === "uint64";
  const isObject = dtype === "v2:object";
  switch (query) {
    case "boolean":
      return isBoolean;
    case "string":
      return isString;
    case "bigint":
      return isBigint;
    case "object":
      return isObject;
    case "number":
      return !isBoolean && !isString && !isBigint && !isObject;
    default:
      return dtype === query;
  }
}
