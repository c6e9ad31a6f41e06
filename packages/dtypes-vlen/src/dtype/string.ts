import { formatValue } from "@z/errors";
import { FillValueError, type JsonValue, ValueTypeError, type ZarrFormat } from "@z/metadata";
import { PlainArrayType } from "./plain-array.js";

/**
 * The v3 `string` data type: variable-length UTF-8 text, held in a `string[]`. Stored with the
 * `vlen-utf8` codec (as zarr-python does) or the `z.vlen-offsets` layout; in v2 it is an object
 * array (`|O`) with a `vlen-utf8` filter. `null` is written as `""`, as numcodecs writes
 * `None`.
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
    throw new FillValueError(
      `Invalid string fill value ${formatValue(json)}: expected a JSON string`,
    );
  }

  fillToJson(value: string, _format?: ZarrFormat): JsonValue {
    return value;
  }

  /**
   * Accepts a string, or `null` (written as `""`, as numcodecs writes `None`). Numbers are not
   * turned into text: anything else (`undefined` included) is a {@link ValueTypeError}.
   */
  coerce(value: unknown): string {
    if (typeof value === "string") return value;
    if (value === null) return "";
    throw new ValueTypeError(value, this.name, 'expected a string (or null for "")');
  }

  override isAllFill(data: string[], value: string): boolean {
    for (let i = 0; i < data.length; i++) if (data[i] !== value) return false;
    return true;
  }

  toJsonElement(value: string): JsonValue {
    return value;
  }
}

/**
 * The `string` data type.
 * @example
 * ```ts
 * const names = await createArray(store, { shape: [2], dtype: "string", serializer: "vlen-utf8", fillValue: "" });
 * await names.set(null, ["a", "b"]);
 * ```
 * @category Data types
 */
export const stringDataType = new StringDataType();
