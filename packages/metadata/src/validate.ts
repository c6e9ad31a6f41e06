import { MetadataError } from "./errors.js";
import { isJsonObject, type JsonObject, type JsonValue } from "./json.js";

/** Reads a required field of a metadata document. @throws MetadataError when it is missing */
export function requireField(doc: JsonObject, field: string, where: string): JsonValue {
  if (!(field in doc)) throw new MetadataError(`${where} is missing the required field "${field}"`);
  return doc[field];
}

/** Checks that a metadata document is a JSON object. */
export function requireObject(json: JsonValue, where: string): JsonObject {
  if (!isJsonObject(json))
    throw new MetadataError(`${where} must be a JSON object, got ${describe(json)}`);
  return json;
}

/** Checks an array shape: a list of non-negative integers. */
export function validateShape(json: JsonValue, where: string): number[] {
  if (!Array.isArray(json))
    throw new MetadataError(`${where}: "shape" must be a list of integers, got ${describe(json)}`);
  for (const extent of json) {
    if (typeof extent !== "number" || !Number.isSafeInteger(extent) || extent < 0) {
      throw new MetadataError(
        `${where}: "shape" entries must be non-negative integers, got ${JSON.stringify(json)}`,
      );
    }
  }
  return json as number[];
}

/** Checks optional v3 `dimension_names`: one string or null per dimension. */
export function validateDimensionNames(
  json: JsonValue | undefined,
  ndim: number,
  where: string,
): (string | null)[] | undefined {
  if (json === undefined || json === null) return undefined;
  if (
    !Array.isArray(json) ||
    json.length !== ndim ||
    json.some((n) => n !== null && typeof n !== "string")
  ) {
    throw new MetadataError(
      `${where}: "dimension_names" must list ${ndim} strings or nulls, got ${JSON.stringify(json)}`,
    );
  }
  return json as (string | null)[];
}

/** Checks optional attributes: a JSON object. */
export function validateAttributes(json: JsonValue | undefined, where: string): JsonObject {
  if (json === undefined) return {};
  if (!isJsonObject(json))
    throw new MetadataError(`${where}: attributes must be a JSON object, got ${describe(json)}`);
  return json;
}

/** A short description of a JSON value for error messages. */
export function describe(json: JsonValue | undefined): string {
  if (json === undefined) return "nothing";
  if (json === null) return "null";
  if (Array.isArray(json)) return "a list";
  if (typeof json === "object") return "an object";
  const text = typeof json === "bigint" ? json.toString() : JSON.stringify(json);
  return `${typeof json} ${text.length > 60 ? `${text.slice(0, 57)}...` : text}`;
}
