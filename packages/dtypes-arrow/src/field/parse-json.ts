import type { JsonObject, JsonValue } from "@z/metadata";
import { isJsonObject } from "@z/metadata";
import { ArrowFieldError } from "../errors.js";
import type {
  ArrowDictionaryEncoding,
  ArrowField,
  ArrowIntType,
  ArrowKeyValue,
  ArrowTimeUnit,
  ArrowType,
} from "./model.js";

const TIME_UNITS: readonly ArrowTimeUnit[] = ["SECOND", "MILLISECOND", "MICROSECOND", "NANOSECOND"];

/** Types of Arrow's format that this package does not read or write (yet). */
/** Nesting deeper than this is refused: no real schema needs it, and recursion must end. */
const MAX_DEPTH = 64;

/** The largest precision of a decimal of each bit width. */
const DECIMAL_MAX_PRECISION: Record<number, number> = { 32: 9, 64: 18, 128: 38, 256: 76 };

function fail(where: string, problem: string): never {
  throw new ArrowFieldError(`Invalid Arrow field: ${where} ${problem}`);
}

/**
 * A JSON value (from metadata) as text for an error message: integers beyond 2^53, which the
 * metadata parser gives as bigints and JSON.stringify refuses, as their digits; long text cut.
 */
export function show(value: JsonValue | undefined): string {
  if (value === undefined) return "missing";
  const text =
    typeof value === "bigint"
      ? value.toString()
      : JSON.stringify(value, (_, v) => (typeof v === "bigint" ? v.toString() : v));
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
}

function checkKeys(obj: JsonObject, allowed: readonly string[], where: string): void {
  for (const key of Object.keys(obj)) {
    if (!allowed.includes(key)) {
      fail(where, `has an unknown member "${key}" (it may have ${allowed.join(", ")})`);
    }
  }
}

function requireObject(value: JsonValue | undefined, where: string): JsonObject {
  if (!isJsonObject(value)) fail(where, `must be a JSON object, got ${show(value)}`);
  return value;
}

function requireString(value: JsonValue | undefined, where: string): string {
  if (typeof value !== "string") fail(where, `must be a string, got ${show(value)}`);
  return value;
}

function requireBoolean(value: JsonValue | undefined, where: string): boolean {
  if (typeof value !== "boolean") fail(where, `must be true or false, got ${show(value)}`);
  return value;
}

function requireInteger(
  value: JsonValue | undefined,
  where: string,
  min: number,
  max: number,
): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) {
    fail(where, `must be an integer from ${min} to ${max}, got ${show(value)}`);
  }
  return value;
}

function requireOneOf<T extends string>(
  value: JsonValue | undefined,
  options: readonly T[],
  where: string,
): T {
  if (typeof value !== "string" || !options.includes(value as T)) {
    fail(
      where,
      `must be one of ${options.map((o) => JSON.stringify(o)).join(", ")}, got ${show(value)}`,
    );
  }
  return value as T;
}

function parseIntType(obj: JsonObject, where: string): ArrowIntType {
  checkKeys(obj, ["name", "bitWidth", "isSigned"], where);
  const bitWidth = obj.bitWidth;
  if (bitWidth !== 8 && bitWidth !== 16 && bitWidth !== 32 && bitWidth !== 64) {
    fail(`${where}.bitWidth`, `must be 8, 16, 32 or 64, got ${show(bitWidth)}`);
  }
  return { name: "int", bitWidth, isSigned: requireBoolean(obj.isSigned, `${where}.isSigned`) };
}

/**
 * Parses the `type` member of a field. The members each family has are those of Arrow's
 * Schema.fbs in integration-test spelling; `"struct_"` (how apache-arrow's JSON writer spells
 * a struct) reads as `"struct"`.
 */
function parseType(json: JsonValue | undefined, where: string): ArrowType {
  const obj = requireObject(json, where);
  const name = requireString(obj.name, `${where}.name`);
  const only = (...keys: string[]) => checkKeys(obj, ["name", ...keys], where);
  switch (name) {
    case "null":
    case "bool":
    case "utf8":
    case "largeutf8":
    case "binary":
    case "largebinary":
    case "utf8view":
    case "binaryview":
    case "runendencoded":
    case "list":
    case "largelist":
    case "listview":
    case "largelistview":
      only();
      return { name };
    case "struct":
    case "struct_":
      only();
      return { name: "struct" };
    case "int":
      return parseIntType(obj, where);
    case "floatingpoint":
      only("precision");
      return {
        name,
        precision: requireOneOf(obj.precision, ["HALF", "SINGLE", "DOUBLE"], `${where}.precision`),
      };
    case "fixedsizebinary":
      only("byteWidth");
      return {
        name,
        byteWidth: requireInteger(obj.byteWidth, `${where}.byteWidth`, 0, 0x7fffffff),
      };
    case "decimal": {
      only("precision", "scale", "bitWidth");
      const bitWidth = obj.bitWidth ?? 128;
      if (bitWidth !== 32 && bitWidth !== 64 && bitWidth !== 128 && bitWidth !== 256) {
        fail(`${where}.bitWidth`, `must be 32, 64, 128 or 256, got ${show(bitWidth)}`);
      }
      const precision = requireInteger(
        obj.precision,
        `${where}.precision`,
        1,
        DECIMAL_MAX_PRECISION[bitWidth],
      );
      const scale = requireInteger(obj.scale, `${where}.scale`, -76, 76);
      return { name, precision, scale, bitWidth };
    }
    case "date":
      only("unit");
      return { name, unit: requireOneOf(obj.unit, ["DAY", "MILLISECOND"], `${where}.unit`) };
    case "time": {
      only("unit", "bitWidth");
      const unit = requireOneOf(obj.unit, TIME_UNITS, `${where}.unit`);
      const expected = unit === "SECOND" || unit === "MILLISECOND" ? 32 : 64;
      if (obj.bitWidth !== expected) {
        fail(
          `${where}.bitWidth`,
          `must be ${expected} for unit ${unit}, got ${show(obj.bitWidth)}`,
        );
      }
      return { name, unit, bitWidth: expected };
    }
    case "timestamp": {
      only("unit", "timezone");
      const unit = requireOneOf(obj.unit, TIME_UNITS, `${where}.unit`);
      if (obj.timezone === undefined || obj.timezone === null) return { name, unit };
      return { name, unit, timezone: requireString(obj.timezone, `${where}.timezone`) };
    }
    case "duration":
      only("unit");
      return { name, unit: requireOneOf(obj.unit, TIME_UNITS, `${where}.unit`) };
    case "interval":
      only("unit");
      return {
        name,
        unit: requireOneOf(obj.unit, ["YEAR_MONTH", "DAY_TIME", "MONTH_DAY_NANO"], `${where}.unit`),
      };
    case "fixedsizelist":
      only("listSize");
      return { name, listSize: requireInteger(obj.listSize, `${where}.listSize`, 0, 0x7fffffff) };
    case "map":
      only("keysSorted");
      return { name, keysSorted: requireBoolean(obj.keysSorted, `${where}.keysSorted`) };
    case "union": {
      only("mode", "typeIds");
      const mode = requireOneOf(obj.mode, ["SPARSE", "DENSE"], `${where}.mode`);
      if (!Array.isArray(obj.typeIds))
        fail(`${where}.typeIds`, `must be a list of integers, got ${show(obj.typeIds)}`);
      const typeIds = obj.typeIds.map((id, i) =>
        requireInteger(id, `${where}.typeIds[${i}]`, 0, 127),
      );
      if (new Set(typeIds).size !== typeIds.length)
        fail(`${where}.typeIds`, `has repeated ids ${show(obj.typeIds)}`);
      return { name, mode, typeIds };
    }
  }
  return fail(`${where}.name`, `"${name}" is not an Arrow type name`);
}

function parseDictionary(json: JsonValue | undefined, where: string): ArrowDictionaryEncoding {
  const obj = requireObject(json, where);
  checkKeys(obj, ["id", "indexType", "isOrdered"], where);
  const id = requireInteger(obj.id, `${where}.id`, 0, Number.MAX_SAFE_INTEGER);
  const indexWhere = `${where}.indexType`;
  const indexObj = requireObject(obj.indexType, indexWhere);
  if (indexObj.name !== "int")
    fail(`${indexWhere}.name`, `must be "int", got ${show(indexObj.name)}`);
  const indexType = parseIntType(indexObj, indexWhere);
  const isOrdered =
    obj.isOrdered === undefined ? false : requireBoolean(obj.isOrdered, `${where}.isOrdered`);
  return { id, indexType, isOrdered };
}

function parseMetadata(json: JsonValue | undefined, where: string): ArrowKeyValue[] | undefined {
  if (json === undefined || json === null) return undefined;
  if (!Array.isArray(json))
    fail(where, `must be null or a list of {"key", "value"} objects, got ${show(json)}`);
  const entries = json.map((entry, i) => {
    const obj = requireObject(entry, `${where}[${i}]`);
    checkKeys(obj, ["key", "value"], `${where}[${i}]`);
    return {
      key: requireString(obj.key, `${where}[${i}].key`),
      value: requireString(obj.value, `${where}[${i}].value`),
    };
  });
  return entries.length > 0 ? entries : undefined;
}

function checkChildren(field: ArrowField, where: string): void {
  const { type, children } = field;
  const count = (n: number) => {
    if (children.length !== n) {
      fail(
        `${where}.children`,
        `must hold exactly ${n} field${n === 1 ? "" : "s"} for a ${type.name}, got ${children.length}`,
      );
    }
  };
  switch (type.name) {
    case "list":
    case "largelist":
    case "listview":
    case "largelistview":
    case "fixedsizelist":
      count(1);
      return;
    case "struct": {
      const seen = new Set<string>();
      for (const child of children) {
        if (seen.has(child.name)) {
          fail(
            `${where}.children`,
            `has two members named "${child.name}"; struct elements are objects, so names must be unique`,
          );
        }
        seen.add(child.name);
      }
      return;
    }
    case "map": {
      count(1);
      const entries = children[0];
      if (
        entries.type.name !== "struct" ||
        entries.children.length !== 2 ||
        entries.nullable ||
        entries.dictionary
      ) {
        fail(`${where}.children[0]`, "must be a non-nullable struct of two fields (key and value)");
      }
      if (entries.children[0].nullable)
        fail(`${where}.children[0].children[0]`, "(the map key) must not be nullable");
      return;
    }
    case "runendencoded": {
      count(2);
      const runEnds = children[0];
      const t = runEnds.type;
      if (
        t.name !== "int" ||
        !t.isSigned ||
        t.bitWidth === 8 ||
        runEnds.nullable ||
        runEnds.dictionary
      ) {
        fail(
          `${where}.children[0]`,
          "(the run ends) must be a non-nullable int16, int32 or int64 field",
        );
      }
      return;
    }
    case "union":
      if (children.length !== type.typeIds.length) {
        fail(
          `${where}.children`,
          `must hold one field per type id (${type.typeIds.length}), got ${children.length}`,
        );
      }
      return;
    default:
      count(0);
  }
}

function parseFieldAt(
  json: JsonValue | undefined,
  where: string,
  depth: number,
  ids: Set<number>,
): ArrowField {
  if (depth > MAX_DEPTH) fail(where, `nests deeper than ${MAX_DEPTH} levels`);
  const obj = requireObject(json, where);
  checkKeys(obj, ["name", "nullable", "type", "children", "dictionary", "metadata"], where);
  const name = obj.name === null ? "" : requireString(obj.name, `${where}.name`);
  const nullable = requireBoolean(obj.nullable, `${where}.nullable`);
  const type = parseType(obj.type, `${where}.type`);
  const childrenJson = obj.children ?? [];
  if (!Array.isArray(childrenJson))
    fail(`${where}.children`, `must be a list of fields, got ${show(childrenJson)}`);
  const children = childrenJson.map((child, i) =>
    parseFieldAt(child, `${where}.children[${i}]`, depth + 1, ids),
  );
  const field: ArrowField = { name, nullable, type, children };
  if (obj.dictionary !== undefined && obj.dictionary !== null) {
    field.dictionary = parseDictionary(obj.dictionary, `${where}.dictionary`);
    if (ids.has(field.dictionary.id)) {
      fail(
        `${where}.dictionary.id`,
        `${field.dictionary.id} is used by another field of the schema`,
      );
    }
    ids.add(field.dictionary.id);
  }
  const metadata = parseMetadata(obj.metadata, `${where}.metadata`);
  if (metadata) field.metadata = metadata;
  checkChildren(field, where);
  return field;
}

/**
 * Parses and validates an Arrow field in the JSON integration-test format (`{name, nullable,
 * type, children, dictionary?, metadata?}`).
 * @param where names the value in error messages
 * @throws ArrowFieldError naming the member that is wrong
 */
export function parseArrowField(json: JsonValue | undefined, where = "field"): ArrowField {
  return parseFieldAt(json, where, 0, new Set());
}
