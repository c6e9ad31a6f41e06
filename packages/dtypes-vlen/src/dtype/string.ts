import { FillValueError, type JsonValue, type ZarrFormat } from "@z/metadata";
import { describeValue, showJson } from "../describe.js";
import { PlainArrayType } from "./plain-array.js";

/**
 * The v3 `string` data type: variable-length UTF-8 text, held in a `string[]`. Stored with the
 * `vlen-utf8` codec (as zarr-python does) or the `z.vlen-offsets` layout; in v2 it is an object
 * array (`|O`) with a `vlen-utf8` filter. `null` and `undefined` are written as `""`, as
 * numcodecs writes `None`.
 */
export class StringDataType extends PlainArrayType<string> {
  readonly name = "string";
  readonly kind = "string";

  /** Strings are stored with `vlen-utf8`, as zarr-python does. */
  defaultSerializer() {
    return { name: "vlen-utf8" };
  }
  readonly defaultFill = "";
  protected readonly serializerHint = "vlen-utf8";

  protected emptyValue(): string {
    return "";
  }

  toV3(): JsonValue {
    return "string";
  }

  parseFill(json: JsonValue, format: ZarrFormat): string {
    if (typeof json === "string") return json;
    // v2 object arrays often say 0 or null; numcodecs reads both as the empty string.
    if (format === 2 && (json === null || json === 0)) return "";
    throw new FillValueError(`Invalid string fill value ${showJson(json)}: expected a JSON string`);
  }

  fillToJson(value: string, _format?: ZarrFormat): JsonValue {
    return value;
  }

  coerce(value: unknown): string {
    if (typeof value === "string") return value;
    if (value === null || value === undefined) return "";
    throw new TypeError(
      `Cannot store ${describeValue(value)} in a string array: expected a string`,
    );
  }

  override isAllFill(data: string[], value: string): boolean {
    for (let i = 0; i < data.length; i++) if (data[i] !== value) return false;
    return true;
  }

  toJsonElement(value: string): JsonValue {
    return value;
  }
}

/** The `string` data type. */
export const stringDataType = new StringDataType();
