// The field and shape checks: private to the @z packages. validate.ts holds the public side, which the
// package entry re-exports whole.

import { formatValue } from "@z/errors";
import { MetadataError } from "./errors.js";
import type { JsonObject, JsonValue } from "./json.js";
import { isJsonObject } from "./json-object.js";
import { checkLimit } from "./limit-check.js";
import { describe } from "./validate.js";

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

/**
 * Checks an array shape: a list of at most `maxDimensions` non-negative integers whose product
 * (the number of elements) stays below 2^53, so every linear index is exact.
 */
export function validateShape(json: unknown, where: string): number[] {
  if (!Array.isArray(json)) {
    throw new MetadataError(
      `${where}: "shape" must be a list of integers, got ${describe(json as JsonValue)}`,
    );
  }
  checkLimit("maxDimensions", json.length, `${where}: the number of dimensions`);
  let elements = 1;
  for (const [axis, extent] of json.entries()) {
    if (typeof extent !== "number" || !Number.isSafeInteger(extent) || extent < 0) {
      throw new MetadataError(
        `${where}: "shape" entries must be non-negative integers below 2^53, got ${formatValue(extent, { bigint: "suffix" })} at axis ${axis} of ${formatValue(json, { bigint: "suffix" })}`,
      );
    }
    elements *= extent;
  }
  if (elements > Number.MAX_SAFE_INTEGER) {
    throw new MetadataError(
      `${where}: the shape ${formatValue(json)} holds more than 2^53 elements, too many to index exactly`,
    );
  }
  return json as number[];
}

/** Checks optional v3 `dimension_names`: one string or null per dimension. */
export function validateDimensionNames(
  json: unknown,
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
      `${where}: "dimension_names" must list ${ndim} strings or nulls, got ${formatValue(json)}`,
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
