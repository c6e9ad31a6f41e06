import { formatValue, locateError } from "@z/errors";
import type { JsonObject, JsonValue } from "../json.js";
import { isJsonObject } from "../json-object.js";
import { checkLimit } from "../limit-check.js";
import { InvalidDataTypeError } from "./dtype-errors.js";
import type { V2DataType } from "./registry.js";
import { type StructFieldSpec, StructType } from "./struct.js";
import type { DataType, Endian } from "./types.js";

const show = (json: unknown) => formatValue(json);

/**
 * Records being parsed, outermost first. Nested records are parsed before the record holding
 * them is built, so the depth is checked on the way in (through either format, and through
 * the registry for v3), before a hostile document can exhaust the stack.
 */
let parsing = 0;

function nested<T>(where: string, parse: () => T): T {
  checkLimit("maxStructDepth", parsing + 1, `${where}: the nesting depth of records`);
  parsing++;
  try {
    return parse();
  } finally {
    parsing--;
  }
}

function parseShape(json: JsonValue, where: string): number[] {
  // NumPy also takes a bare integer for a one-dimensional subarray.
  const shape = typeof json === "number" ? [json] : json;
  if (
    !Array.isArray(shape) ||
    !shape.every((n) => typeof n === "number" && Number.isSafeInteger(n) && n >= 1)
  ) {
    throw new InvalidDataTypeError(
      `${where}: a subarray shape must be a list of positive integers, got ${show(json)}`,
    );
  }
  return shape as number[];
}

/**
 * The struct type of a v2 structured dtype: a list of `[name, type]` or `[name, type, shape]`
 * entries, where `type` is a type string or, for a nested record, another such list. Each field
 * keeps the byte order its type string names. Padding entries with an empty name get NumPy's
 * name for them (`f<index>`).
 * @param resolveTypestr resolves one field type string (the v2 registry)
 * @throws InvalidDataTypeError naming the entry that does not parse
 */
export function parseStructV2(
  json: JsonValue[],
  resolveTypestr: (typestr: string) => V2DataType,
  where = "dtype",
): StructType {
  return nested(where, () => parseFieldsV2(json, resolveTypestr, where));
}

function parseFieldsV2(
  json: JsonValue[],
  resolveTypestr: (typestr: string) => V2DataType,
  where: string,
): StructType {
  if (json.length === 0)
    throw new InvalidDataTypeError(`${where}: a structured dtype needs at least one field`);
  const fields: StructFieldSpec[] = json.map((entry, index) => {
    const at = `${where} field ${index}`;
    if (
      !Array.isArray(entry) ||
      entry.length < 2 ||
      entry.length > 3 ||
      typeof entry[0] !== "string"
    ) {
      throw new InvalidDataTypeError(
        `${at}: expected ["name", "<type>"] or ["name", "<type>", [shape]], got ${show(entry)}`,
      );
    }
    const name = entry[0] === "" ? `f${index}` : entry[0];
    const shape = entry.length === 3 ? parseShape(entry[2], `${at} (${JSON.stringify(name)})`) : [];
    const type = entry[1];
    if (Array.isArray(type)) {
      return {
        name,
        dataType: parseStructV2(type, resolveTypestr, `${at} (${JSON.stringify(name)})`),
        shape,
      };
    }
    if (typeof type !== "string") {
      throw new InvalidDataTypeError(
        `${at} (${JSON.stringify(name)}): the type must be a type string or a list of fields, got ${show(type)}`,
      );
    }
    let resolved: V2DataType;
    try {
      resolved = resolveTypestr(type);
    } catch (error) {
      throw new InvalidDataTypeError(
        `${at} (${JSON.stringify(name)}): ${(error as Error).message}`,
        { cause: error },
      );
    }
    const endian: Endian | undefined = resolved.dataType.endianSensitive
      ? resolved.endian
      : undefined;
    return { name, dataType: resolved.dataType, shape, endian: endian ?? "little" };
  });
  try {
    return new StructType(fields);
  } catch (error) {
    throw error instanceof InvalidDataTypeError ? locateError(error, where) : error;
  }
}

/** The byte order a v2 structured dtype reports: its first multi-byte field's, else little. */
export function structEndian(type: StructType): Endian {
  for (const f of type.fields) {
    if (f.dataType instanceof StructType) return structEndian(f.dataType);
    if (f.dataType.endianSensitive && f.endian) return f.endian;
  }
  return "little";
}

/**
 * The struct type of a v3 `data_type` named `struct` (fields as `{"name", "data_type"}`) or
 * `structured` (fields as `[name, data_type]` pairs), or `undefined` for other names. A field's
 * `data_type` may be `{"name": "subarray", "configuration": {"subdtype", "shape"}}`.
 * @param resolveV3 resolves one field's data type (the v3 registry)
 * @throws InvalidDataTypeError naming the field that does not parse
 */
export function parseStructV3(
  json: JsonValue,
  resolveV3: (json: JsonValue) => DataType,
): StructType | undefined {
  if (!isJsonObject(json) || (json.name !== "struct" && json.name !== "structured"))
    return undefined;
  const where = `data_type ${json.name}`;
  return nested(where, () => parseFieldsV3(json, where, resolveV3));
}

function parseFieldsV3(
  json: JsonObject,
  where: string,
  resolveV3: (json: JsonValue) => DataType,
): StructType {
  const config = json.configuration;
  const list = isJsonObject(config) ? config.fields : undefined;
  if (!Array.isArray(list) || list.length === 0) {
    throw new InvalidDataTypeError(
      `${where} needs a configuration {"fields": [...]} with at least one field`,
    );
  }
  const fields = list.map((entry, index): StructFieldSpec => {
    const at = `${where} field ${index}`;
    let name: JsonValue | undefined;
    let type: JsonValue | undefined;
    if (isJsonObject(entry)) [name, type] = [entry.name, entry.data_type];
    else if (Array.isArray(entry) && entry.length === 2) [name, type] = entry;
    if (typeof name !== "string" || type === undefined) {
      throw new InvalidDataTypeError(
        `${at}: expected {"name": "...", "data_type": ...}, got ${show(entry)}`,
      );
    }
    if (isJsonObject(type) && type.name === "subarray") {
      const sub = type.configuration;
      if (!isJsonObject(sub) || sub.subdtype === undefined) {
        throw new InvalidDataTypeError(
          `${at} (${JSON.stringify(name)}): a subarray needs {"subdtype", "shape"}`,
        );
      }
      return {
        name,
        dataType: resolveV3(sub.subdtype),
        shape: parseShape(sub.shape ?? null, `${at} (${JSON.stringify(name)})`),
      };
    }
    return { name, dataType: resolveV3(type) };
  });
  try {
    return new StructType(fields);
  } catch (error) {
    throw error instanceof InvalidDataTypeError ? locateError(error, where) : error;
  }
}
