import { formatValue } from "@z/errors";
import { type DataType, type JsonObject, type JsonValue, resolveNumpyDataType } from "@z/metadata";

import { CodecConfigError } from "../errors.js";
import { type NumericType, numericType } from "./numpy-types.js";
import type { FilterDtype } from "./types.js";

/**
 * Resolves a dtype field: a NumPy type string (`"<i4"`, `"|u1"`, `">f8"`) or a name
 * (`"int32"`). Byte order is ignored: filters see native-endian elements.
 * @throws CodecConfigError when it is missing, unknown or not a numeric type
 */
export function parseDtype(configuration: JsonObject, field: string, codec: string): FilterDtype {
  const json = configuration[field];
  if (json === undefined) {
    throw new CodecConfigError(
      `${codec}: the configuration needs "${field}" (a NumPy dtype such as "<i4")`,
    );
  }
  if (typeof json !== "string") {
    throw new CodecConfigError(
      `${codec}: "${field}" must be a NumPy dtype string such as "<i4" or "int32", got ${formatValue(json)}`,
    );
  }
  let dataType: DataType;
  try {
    dataType = resolveNumpyDataType(json, `${codec} "${field}"`).dataType;
  } catch (error) {
    throw new CodecConfigError(
      `${codec}: unknown dtype ${formatValue(json)} in "${field}"; expected a NumPy type string ` +
        `such as "<i4", "|u1", "<f8" or a name such as "int32"`,
      { cause: error },
    );
  }
  const type = numericType(dataType.name);
  if (!type) {
    throw new CodecConfigError(
      `${codec}: dtype ${formatValue(json)} in "${field}" is ${dataType.name}; only bool, integer and float types are supported`,
    );
  }
  return { json, dataType, type };
}

/** Like {@link parseDtype}, but `undefined` when the field is absent (or null). */
export function parseOptionalDtype(
  configuration: JsonObject,
  field: string,
  codec: string,
): FilterDtype | undefined {
  const json = configuration[field];
  return json === undefined || json === null ? undefined : parseDtype(configuration, field, codec);
}

/**
 * A required finite number field.
 * @throws CodecConfigError
 */
export function parseNumber(configuration: JsonObject, field: string, codec: string): number {
  const json: JsonValue | undefined = configuration[field];
  if (json === undefined || json === null) {
    throw new CodecConfigError(`${codec}: the configuration needs "${field}" (a number)`);
  }
  if (typeof json !== "number" || !Number.isFinite(json)) {
    throw new CodecConfigError(
      `${codec}: "${field}" must be a finite number, got ${formatValue(json)}`,
    );
  }
  return json;
}

/**
 * A required integer field within `[min, max]`.
 * @throws CodecConfigError
 */
export function parseInteger(
  configuration: JsonObject,
  field: string,
  codec: string,
  min: number,
  max: number,
): number {
  const value = parseNumber(configuration, field, codec);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new CodecConfigError(
      `${codec}: "${field}" must be an integer from ${min} to ${max}, got ${value}`,
    );
  }
  return value;
}

/**
 * Checks that the dtype a filter is configured with is the data type of the chunks it gets:
 * numcodecs would reinterpret the bytes otherwise, which is never what a writer meant.
 * @throws CodecConfigError
 */
export function requireChunkType(
  codec: string,
  field: string,
  dtype: FilterDtype,
  chunkType: DataType,
): void {
  if (dtype.dataType.name !== chunkType.name) {
    throw new CodecConfigError(
      `${codec}: "${field}" is ${formatValue(dtype.json)} (${dtype.dataType.name}) but the chunks it ` +
        `receives are ${chunkType.name}; the filter's dtype must be the data type of the array (or of the previous filter's output)`,
    );
  }
}

/**
 * The numeric type of a chunk data type, for filters that take it from the chunk.
 * @throws CodecConfigError for non-numeric chunks
 */
export function chunkNumericType(codec: string, chunkType: DataType): NumericType {
  const type = numericType(chunkType.name);
  if (!type) {
    throw new CodecConfigError(
      `${codec}: chunks of ${chunkType.name} are not supported; only bool, integer and float types are`,
    );
  }
  return type;
}
