import { formatValue } from "@z/errors";
import type { JsonValue } from "@z/metadata";
import {
  base64ToBytes,
  bytesToBase64,
  floatToJson,
  integerToJson,
  isJsonObject,
} from "@z/metadata";
import { ArrowValueError } from "../errors.js";
import type { ArrowField } from "../field/model.js";
import { coerceElement } from "./coerce.js";

/**
 * The JSON form of an element (as `zarr get --json` prints it and fill values are written):
 * numbers as numbers (`"NaN"`, `"Infinity"`, `"-Infinity"` as strings, integers beyond 2^53 as
 * decimal strings), bytes as `{"base64": ...}`, decimals as strings, lists as arrays, structs
 * as objects, maps as `[key, value]` pairs, unions as `{"typeId", "value"}`, nulls as null.
 */
export function arrowElementToJson(field: ArrowField, value: unknown): JsonValue {
  if (value === null || value === undefined) return null;
  const t = field.type;
  switch (t.name) {
    case "floatingpoint":
      return floatToJson(value as number);
    case "int":
    case "date":
    case "time":
    case "timestamp":
    case "duration":
      return integerToJson(value as number | bigint);
    case "bool":
    case "utf8":
    case "largeutf8":
    case "utf8view":
    case "decimal":
      return value as string | boolean;
    case "binary":
    case "largebinary":
    case "binaryview":
    case "fixedsizebinary":
      return { base64: bytesToBase64(value as Uint8Array) };
    case "interval":
      if (typeof value === "number") return value;
      return Object.fromEntries(
        Object.entries(value as Record<string, number | bigint>).map(([k, v]) => [
          k,
          integerToJson(v),
        ]),
      );
    case "list":
    case "largelist":
    case "listview":
    case "largelistview":
    case "fixedsizelist":
      return (value as unknown[]).map((item) => arrowElementToJson(field.children[0], item));
    case "struct": {
      const out: { [key: string]: JsonValue } = {};
      const record = value as Record<string, unknown>;
      for (const child of field.children)
        out[child.name] = arrowElementToJson(child, record[child.name]);
      return out;
    }
    case "map": {
      const [keyField, valueField] = field.children[0].children;
      return (value as [unknown, unknown][]).map(([k, v]) => [
        arrowElementToJson(keyField, k),
        arrowElementToJson(valueField, v),
      ]);
    }
    case "union": {
      const { typeId, value: member } = value as { typeId: number; value: unknown };
      const child = field.children[t.typeIds.indexOf(typeId)];
      return { typeId, value: arrowElementToJson(child, member) };
    }
    case "runendencoded":
      return arrowElementToJson(field.children[1], value);
    case "null":
      return null;
  }
}

const INTEGER_TEXT = /^-?\d+$/;

/** The JS value a JSON value stands for, before coercion (JSON has no bigints, bytes, NaN). */
function fromJsonValue(field: ArrowField, json: JsonValue, path: string): unknown {
  if (json === null) return null;
  const t = field.type;
  switch (t.name) {
    case "int":
    case "date":
    case "time":
    case "timestamp":
    case "duration":
      return typeof json === "string" && INTEGER_TEXT.test(json) ? BigInt(json) : json;
    case "floatingpoint":
      if (json === "NaN") return Number.NaN;
      if (json === "Infinity") return Number.POSITIVE_INFINITY;
      if (json === "-Infinity") return Number.NEGATIVE_INFINITY;
      return json;
    case "runendencoded":
      return fromJsonValue(field.children[1], json, path);
    case "binary":
    case "largebinary":
    case "binaryview":
    case "fixedsizebinary": {
      const text = isJsonObject(json) ? json.base64 : json;
      if (typeof text !== "string") {
        throw new ArrowValueError(
          `${path} is ${formatValue(json)}; bytes are written {"base64": "..."}`,
        );
      }
      try {
        return base64ToBytes(text, path);
      } catch (error) {
        throw new ArrowValueError((error as Error).message);
      }
    }
    case "interval":
      if (!isJsonObject(json)) return json;
      return Object.fromEntries(
        Object.entries(json).map(([k, v]) => [
          k,
          typeof v === "string" && INTEGER_TEXT.test(v) ? BigInt(v) : v,
        ]),
      );
    case "list":
    case "largelist":
    case "listview":
    case "largelistview":
    case "fixedsizelist":
      if (!Array.isArray(json)) return json;
      return json.map((item, i) => fromJsonValue(field.children[0], item, `${path}[${i}]`));
    case "struct": {
      if (!isJsonObject(json)) return json;
      const out: Record<string, unknown> = { ...json };
      for (const child of field.children) {
        if (child.name in json)
          out[child.name] = fromJsonValue(child, json[child.name], `${path}.${child.name}`);
      }
      return out;
    }
    case "map": {
      if (!Array.isArray(json)) return json;
      const [keyField, valueField] = field.children[0].children;
      return json.map((pair, i) =>
        Array.isArray(pair) && pair.length === 2
          ? [
              fromJsonValue(keyField, pair[0], `${path}[${i}][0]`),
              fromJsonValue(valueField, pair[1], `${path}[${i}][1]`),
            ]
          : pair,
      );
    }
    case "union": {
      if (!isJsonObject(json)) return json;
      const index = t.typeIds.indexOf(json.typeId as number);
      if (index < 0 || json.value === undefined) return json;
      return {
        typeId: json.typeId,
        value: fromJsonValue(field.children[index], json.value, `${path}.value`),
      };
    }
    default:
      return json;
  }
}

/**
 * The element a JSON value (in the form {@link arrowElementToJson} writes) stands for.
 * @throws ArrowValueError when it does not fit the field
 */
export function arrowElementFromJson(field: ArrowField, json: JsonValue, path = "value"): unknown {
  return coerceElement(field, fromJsonValue(field, json, path), path);
}
