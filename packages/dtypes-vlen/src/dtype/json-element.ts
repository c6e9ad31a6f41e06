import { floatToJson, integerToJson, type JsonValue } from "@z/metadata";
import { isTypedArray } from "@z/ndarray";
import { toBase64 } from "../layout/base64.js";

/**
 * A number that json2 writes in float form (`1.0`, not `1`), as Python writes its floats.
 * JavaScript has one number type, so an integral value is written as an integer unless it is
 * wrapped in this. `parsePythonJson(text, {markFloats: true})` produces these, so that
 * decoding and re-encoding a json2 chunk gives back the same bytes.
 */
export class JsonFloat {
  constructor(
    /** The value. */
    readonly value: number,
  ) {}

  /** The plain number (so arithmetic and comparisons work on it). */
  valueOf(): number {
    return this.value;
  }
}

/**
 * The JSON form of an element of a variable-length array for `zarr get --json`: strings as
 * strings, bytes as `{"base64": ...}`, numbers as JSON can hold them (`"NaN"`, `"Infinity"`,
 * integers beyond 2^53 as decimal strings), lists and objects recursively.
 * @param numericArrays write Uint8Arrays as lists of numbers (vlen-array elements), not bytes
 */
export function elementToJson(value: unknown, numericArrays = false): JsonValue {
  if (value === null || value === undefined) return null;
  switch (typeof value) {
    case "string":
    case "boolean":
      return value;
    case "number":
      return floatToJson(value);
    case "bigint":
      return integerToJson(value);
  }
  if (value instanceof JsonFloat) return floatToJson(value.value);
  if (value instanceof Uint8Array && !numericArrays) return { base64: toBase64(value) };
  if (isTypedArray(value))
    return Array.from(value as ArrayLike<number | bigint>, (v) => elementToJson(v));
  if (Array.isArray(value)) return value.map((v) => elementToJson(v, numericArrays));
  if (typeof value === "object") {
    const out: { [key: string]: JsonValue } = {};
    for (const [key, v] of Object.entries(value)) out[key] = elementToJson(v, numericArrays);
    return out;
  }
  return String(value);
}
