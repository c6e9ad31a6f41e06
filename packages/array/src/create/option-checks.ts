import { formatValue } from "@z/errors";
import { type DataType, InvalidDataTypeError, MetadataError } from "@z/metadata";

/** A value as a message shows it: bigints as `10n`, since users pass JavaScript values here. */
export const shown = (value: unknown): string => formatValue(value, { bigint: "suffix" });

/** Whether a value is a plain object (`{...}`, not an array, a class instance or null). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * Checks that options were given as an object.
 * @throws MetadataError naming the function
 */
export function checkOptionsObject(options: unknown, what: string): void {
  if (!isPlainObject(options))
    throw new MetadataError(`${what} takes an options object, got ${shown(options)}`);
}

/**
 * Checks an option that takes one of a few values (`undefined` meaning the default).
 * @throws MetadataError naming the option, the value and the choices
 */
export function checkChoice(value: unknown, allowed: readonly unknown[], option: string): void {
  if (value !== undefined && !allowed.includes(value)) {
    throw new MetadataError(
      `The ${option} option must be ${allowed.map(shown).join(" or ")}, got ${shown(value)}`,
    );
  }
}

/** What a DataType object must have: the members `createArray` and the codecs use. */
const DATA_TYPE_METHODS = [
  "create",
  "toV3",
  "toV2",
  "encode",
  "decode",
  "parseFill",
  "fillToJson",
  "coerce",
  "fill",
  "isAllFill",
  "getElement",
  "setElement",
] as const;

/**
 * Checks that a `dtype` option that is not a name is a DataType object.
 * @throws InvalidDataTypeError naming the value and what it lacks
 */
export function checkDataTypeObject(dtype: unknown): DataType {
  const object = dtype as Record<string, unknown> | null;
  const missing =
    typeof dtype !== "object" || object === null
      ? ["everything"]
      : [
          ...(typeof object.name === "string" ? [] : ["name"]),
          ...(typeof object.itemSize === "number" && Number.isSafeInteger(object.itemSize)
            ? []
            : ["itemSize"]),
          ...DATA_TYPE_METHODS.filter((m) => typeof object[m] !== "function"),
        ];
  if (missing.length > 0) {
    throw new InvalidDataTypeError(
      `The dtype option ${shown(dtype)} is neither a data type name (such as "int16" or "<f8") nor a DataType object (it lacks ${missing.join(", ")})`,
    );
  }
  return dtype as DataType;
}
