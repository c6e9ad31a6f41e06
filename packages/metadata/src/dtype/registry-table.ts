import { UnknownDataTypeError } from "../errors.js";
import { isJsonObject, type JsonValue } from "../json.js";
import { checkLimit } from "../limits.js";
import type { DataType, Endian } from "./types.js";

// The table of data types and the lookups over it, without the built-in registrations: the
// modules that register built-ins import this one, and registry.ts imports them all and runs
// the registrations, so no module imports one that imports it back.

/** A data type read from v2 metadata, with the byte order its type string names. */
export interface V2DataType {
  /** The data type. */
  dataType: DataType;
  /** The byte order of stored elements. */
  endian: Endian;
}

/** Resolves a v3 `data_type` JSON value to a data type, or `undefined` if it is not its kind. */
export type V3DataTypeResolver = (json: JsonValue) => DataType | undefined;
/** Resolves a v2 `dtype` JSON value to a data type and byte order, or `undefined`. */
export type V2DataTypeResolver = (json: JsonValue) => V2DataType | undefined;

const byName = new Map<string, DataType>();
const v3Resolvers: V3DataTypeResolver[] = [];
const v2Resolvers: V2DataTypeResolver[] = [];

/**
 * Registers a data type, or resolvers for a family of them (types with parameters, such as
 * `r16` or a datetime unit). Later registrations win over earlier ones.
 * @example
 * ```ts
 * // A data type object (name, itemSize, encode/decode, fill values, ...) under its v3 name:
 * registerDataType(myDataType);
 * // or resolvers for metadata forms that are not a plain name:
 * registerDataType({ v3: (json) => (isMyForm(json) ? myDataTypeFor(json) : undefined) });
 * ```
 * @category Extending
 */
export function registerDataType(
  entry: DataType | { v3?: V3DataTypeResolver; v2?: V2DataTypeResolver },
): void {
  if ("name" in entry && "create" in entry) {
    byName.set(entry.name, entry);
    return;
  }
  if (entry.v3) v3Resolvers.unshift(entry.v3);
  if (entry.v2) v2Resolvers.unshift(entry.v2);
}

/**
 * The data type a v3 `data_type` names.
 * @param where named in the error, e.g. the metadata document's key
 * @throws UnknownDataTypeError
 */
export function resolveDataTypeV3(json: JsonValue, where = ""): DataType {
  for (const resolve of v3Resolvers) {
    const found = resolve(json);
    if (found) return withinLimits(found, where);
  }
  const name = typeof json === "string" ? json : isJsonObject(json) ? json.name : undefined;
  const found = typeof name === "string" ? byName.get(name) : undefined;
  if (found && (typeof json === "string" || found.toV3() === name)) return found;
  throw new UnknownDataTypeError(json, where);
}

/** Checks the element size of a type an extension resolver made (`maxItemSize`). */
function withinLimits<T extends DataType | V2DataType>(found: T, where: string): T {
  const dataType: DataType = "dataType" in found ? (found as V2DataType).dataType : found;
  const at = where ? `${where}: the element size of ${dataType.name}` : dataType.name;
  checkLimit("maxItemSize", dataType.itemSize, at);
  return found;
}

const V2_NUMERIC = /^([<>|=]?)([biuf])(\d+)$/;

function resolveNumericV2(json: JsonValue): V2DataType | undefined {
  if (typeof json !== "string") return undefined;
  const match = V2_NUMERIC.exec(json);
  if (!match) return undefined;
  const [, order, char, size] = match;
  const name = { b: "bool", i: "int", u: "uint", f: "float" }[char as "b" | "i" | "u" | "f"];
  const full = char === "b" ? (size === "1" ? "bool" : "") : `${name}${Number(size) * 8}`;
  const dataType = byName.get(full);
  if (!dataType) return undefined;
  return { dataType, endian: order === ">" ? "big" : "little" };
}

/**
 * The data type and byte order a v2 `dtype` names (`"<i4"`, `"|b1"`, `">f8"`, ...).
 * @throws UnknownDataTypeError
 */
export function resolveDataTypeV2(json: JsonValue, where = ""): V2DataType {
  for (const resolve of v2Resolvers) {
    const found = resolve(json);
    if (found) return withinLimits(found, where);
  }
  const found = resolveNumericV2(json);
  if (found) return found;
  throw new UnknownDataTypeError(json, where);
}

/**
 * The data type of a NumPy dtype string as codec configurations write it: a type string
 * (`"<i4"`, `"i4"`, `"|u1"`) or a name (`"int32"`, `"float64"`, `"bool"`).
 * @throws UnknownDataTypeError
 */
export function resolveNumpyDataType(dtype: string, where = ""): V2DataType {
  const named = byName.get(dtype);
  if (named) return { dataType: named, endian: "little" };
  return resolveDataTypeV2(dtype, where);
}

/** The names of every registered data type with a plain-string v3 name. */
export function registeredDataTypeNames(): string[] {
  return [...byName.keys()];
}
