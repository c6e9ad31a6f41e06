import { formatValue } from "@z/errors";
import {
  checkJsonValue,
  type DataType,
  InvalidDataTypeError,
  MetadataError,
  type NamedConfig,
} from "@z/metadata";
import { type CodecSpec, toNamedConfig } from "./codec-specs.js";

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

/**
 * A codec given by the user as a metadata entry, checked: a name, a `{name, configuration?,
 * must_understand?}` object or a numcodecs `{id, ...}` object, whose configuration holds JSON
 * values only.
 * @param where names the codec in messages, e.g. `codecs[1]`
 * @throws MetadataError naming the codec and what is wrong
 */
export function checkedCodec(spec: unknown, where: string): NamedConfig {
  if (typeof spec === "string") {
    if (spec === "") throw new MetadataError(`${where}: a codec name must not be empty`);
    return toNamedConfig(spec);
  }
  if (!isPlainObject(spec) || (typeof spec.name !== "string" && typeof spec.id !== "string")) {
    throw new MetadataError(
      `${where} must be a codec name, {name, configuration?} or a numcodecs {id, ...} object, got ${shown(spec)}`,
    );
  }
  if (typeof spec.id !== "string") {
    if (spec.configuration !== undefined && !isPlainObject(spec.configuration)) {
      throw new MetadataError(
        `${where}.configuration must be an object, got ${shown(spec.configuration)}`,
      );
    }
    if (spec.must_understand !== undefined && typeof spec.must_understand !== "boolean") {
      throw new MetadataError(
        `${where}.must_understand must be true or false, got ${shown(spec.must_understand)}`,
      );
    }
  }
  const entry = toNamedConfig(spec as CodecSpec);
  checkJsonValue(entry.configuration, `${where}.configuration`);
  return entry;
}

/**
 * A list of codecs the user gave, checked.
 * @throws MetadataError when it is not a list, or for the first codec that is not valid
 */
export function checkedCodecList(list: unknown, option: string): NamedConfig[] {
  if (!Array.isArray(list))
    throw new MetadataError(`The ${option} option must be a list of codecs, got ${shown(list)}`);
  return list.map((spec, i) => checkedCodec(spec, `${option}[${i}]`));
}
