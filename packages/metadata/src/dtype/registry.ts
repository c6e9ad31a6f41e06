import { UnknownDataTypeError } from "../errors.js";
import type { JsonValue } from "../json.js";
import { isJsonObject } from "../json-object.js";
import { checkLimit } from "../limit-check.js";
import { DataTypeNotLoadedError } from "./dtype-errors.js";
import { dataTypesLoaded, loadBuiltinDataTypes } from "./lazy-load.js";
import { numericDataTypes } from "./numeric.js";
import {
  byName,
  type DataTypeLoader,
  dataTypeLoaders,
  runDataTypeLoader,
  type V2DataType,
  type V2DataTypeResolver,
  type V3DataTypeResolver,
  v2Resolvers,
  v3Resolvers,
} from "./registry-tables.js";
import type { DataType } from "./types.js";

export type { V2DataType, V2DataTypeResolver, V3DataTypeResolver } from "./registry-tables.js";

/**
 * Registers a data type, or resolvers for a family of them (types with parameters, such as
 * `r16` or a datetime unit). Later registrations win over earlier ones, and over the built-in
 * data types that load on first use.
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
 * Registers data types that load on first use: `load` imports a module that registers them
 * (with {@link registerDataType}); `matches` says which `data_type` / `dtype` descriptions it may
 * resolve. Opening or creating an array whose metadata names one awaits the import first.
 * @example
 * ```ts
 * registerDataTypeLoader((json) => json === "example.rgb", () => import("./rgb-data-type.js"));
 * ```
 * @category Extending
 */
export function registerDataTypeLoader(
  matches: (json: JsonValue) => boolean,
  load: () => Promise<unknown>,
): void {
  dataTypeLoaders.push({ matches, load, done: false });
}

/** The loaders not run yet that may resolve a description. */
function loadersFor(json: JsonValue): DataTypeLoader[] {
  return dataTypeLoaders.filter((loader) => !loader.done && loader.matches(json));
}

/** Loads whatever may resolve a description: the built-in lazy types and matching loaders. */
async function loadDataTypesOf(json: JsonValue): Promise<void> {
  const pending = loadersFor(json).map(runDataTypeLoader);
  if (!dataTypesLoaded()) pending.push(loadBuiltinDataTypes());
  await Promise.all(pending);
}

/** The error for a data type nothing resolves: "not loaded" while something may still load. */
function unresolved(json: JsonValue, where: string): UnknownDataTypeError {
  return dataTypesLoaded() && loadersFor(json).length === 0
    ? new UnknownDataTypeError(json, where)
    : new DataTypeNotLoadedError(json, where, () => loadDataTypesOf(json));
}

/**
 * The data type a v3 `data_type` names.
 * @param where named in the error, e.g. the metadata document's key
 * @throws UnknownDataTypeError, or its subclass DataTypeNotLoadedError for a type that may be
 *   one of those that load on first use (see {@link loadDataTypes})
 */
export function resolveDataTypeV3(json: JsonValue, where = ""): DataType {
  for (const resolve of v3Resolvers) {
    const found = resolve(json);
    if (found) return withinLimits(found, where);
  }
  const name = typeof json === "string" ? json : isJsonObject(json) ? json.name : undefined;
  const found = typeof name === "string" ? byName.get(name) : undefined;
  if (found && (typeof json === "string" || found.toV3() === name)) return found;
  throw unresolved(json, where);
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
 * @throws UnknownDataTypeError, or its subclass DataTypeNotLoadedError for a type that may be
 *   one of those that load on first use (see {@link loadDataTypes})
 */
export function resolveDataTypeV2(json: JsonValue, where = ""): V2DataType {
  for (const resolve of v2Resolvers) {
    const found = resolve(json);
    if (found) return withinLimits(found, where);
  }
  const found = resolveNumericV2(json);
  if (found) return found;
  throw unresolved(json, where);
}

/**
 * The data type of a NumPy dtype string as codec configurations write it: a type string
 * (`"<i4"`, `"i4"`, `"|u1"`) or a name (`"int32"`, `"float64"`, `"bool"`).
 * @throws UnknownDataTypeError (DataTypeNotLoadedError, as for {@link resolveDataTypeV2})
 */
export function resolveNumpyDataType(dtype: string, where = ""): V2DataType {
  const named = byName.get(dtype);
  if (named) return { dataType: named, endian: "little" };
  return resolveDataTypeV2(dtype, where);
}

/**
 * The names of every registered data type with a plain-string v3 name. The built-in types that
 * load on first use are listed once loaded (`await loadDataTypes()` first for all of them).
 */
export function registeredDataTypeNames(): string[] {
  return [...byName.keys()];
}

/** Whether a data type description resolves now (a `"data_type"` or, v2 style, a `"dtype"`). */
function resolvesNow(json: JsonValue, v3: boolean): boolean {
  try {
    if (v3) resolveDataTypeV3(json);
    else if (typeof json === "string") resolveNumpyDataType(json);
    else resolveDataTypeV2(json);
    return true;
  } catch (error) {
    // Malformed descriptions are reported where the document is parsed, with their context.
    return !(error instanceof DataTypeNotLoadedError);
  }
}

/** Keys whose values are user data, never data type descriptions. */
const isUserData = (key: string) => key === "attributes" || key.endsWith(".zattrs");

/** Collects the data type descriptions of a metadata document that do not resolve yet. */
function collectUnresolved(json: JsonValue, found: JsonValue[], depth: number): void {
  if (depth > 64) return;
  if (Array.isArray(json)) {
    for (const item of json) collectUnresolved(item, found, depth + 1);
    return;
  }
  if (!isJsonObject(json)) return;
  for (const [key, value] of Object.entries(json)) {
    if (isUserData(key)) continue;
    if (key === "data_type" && !resolvesNow(value, true)) found.push(value);
    else if ((key === "dtype" || key === "astype") && !resolvesNow(value, false)) found.push(value);
    else collectUnresolved(value, found, depth + 1);
  }
}

/**
 * Loads the data types a metadata document needs (v3 `zarr.json`, v2 `.zarray`, consolidated
 * metadata, codec configurations): the `data_type` and `dtype` values it holds outside
 * attributes. Resolves at once when they resolve already, which is the case for the plain
 * numeric types; otherwise loads the built-in types that load on first use and runs the
 * loaders extensions registered with {@link registerDataTypeLoader} for them.
 * @example
 * ```ts
 * const doc = JSON.parse(text);
 * await loadDataTypesFor(doc);
 * const metadata = parseArrayMetadataV3(doc); // synchronous from here
 * ```
 * @category Data types
 */
export async function loadDataTypesFor(json: JsonValue): Promise<void> {
  const found: JsonValue[] = [];
  collectUnresolved(json, found, 0);
  await Promise.all(found.map(loadDataTypesOf));
}

for (const dataType of numericDataTypes) registerDataType(dataType);
