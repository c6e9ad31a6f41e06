// The v2 and v3 parsers: private to the @z packages. datetime.ts holds the public side, which the
// package entry re-exports whole.
import { formatValue } from "@z/errors";
import type { JsonValue } from "../json.js";
import { isJsonObject } from "../json-object.js";
import { DateTimeType, parseDateTimeUnit } from "./datetime.js";
import { InvalidDataTypeError } from "./dtype-errors.js";
import type { Endian } from "./types.js";

function parseScaleFactor(value: unknown, where: string): number {
  if (typeof value === "number" && Number.isInteger(value) && value >= 1 && value <= 2 ** 31 - 1)
    return value;
  throw new InvalidDataTypeError(
    `${where}: "scale_factor" must be an integer from 1 to 2147483647, got ${formatValue(value)}`,
  );
}

const V2_TIME = /^([<>|=]?)([Mm])8(?:\[(.*)\])?$/;

/**
 * The datetime type and byte order of a v2 type string (`<M8[ns]`, `>m8[10s]`, `<M8`), or
 * `undefined` when the string is not a datetime64/timedelta64 one.
 * @throws InvalidDataTypeError for an unknown unit or a bad scale factor
 */
export function parseDateTimeV2(
  json: JsonValue,
): { dataType: DateTimeType; endian: Endian } | undefined {
  if (typeof json !== "string") return undefined;
  const match = V2_TIME.exec(json);
  if (!match) return undefined;
  const [, order, char, inner] = match;
  const kind = char === "M" ? "datetime" : "timedelta";
  const endian: Endian = order === ">" ? "big" : "little";
  if (inner === undefined) return { dataType: new DateTimeType(kind, "generic"), endian };
  const parts = /^(\d*)(.+)$/.exec(inner);
  const where = `dtype ${formatValue(json)}`;
  if (!parts)
    throw new InvalidDataTypeError(
      `${where}: expected a unit in brackets, such as "<M8[ns]" or "<m8[10s]"`,
    );
  const unit = parseDateTimeUnit(parts[2], where);
  const scale = parts[1] === "" ? 1 : parseScaleFactor(Number(parts[1]), where);
  return { dataType: new DateTimeType(kind, unit, scale), endian };
}

/**
 * The datetime type of a v3 `data_type` (`numpy.datetime64` / `numpy.timedelta64` with
 * `{unit, scale_factor}`), or `undefined` for other names.
 * @throws InvalidDataTypeError for a missing or malformed configuration
 */
export function parseDateTimeV3(json: JsonValue): DateTimeType | undefined {
  if (!isJsonObject(json)) return undefined;
  const kind =
    json.name === "numpy.datetime64"
      ? "datetime"
      : json.name === "numpy.timedelta64"
        ? "timedelta"
        : undefined;
  if (!kind) return undefined;
  const where = `data_type ${json.name}`;
  const config = json.configuration;
  if (!isJsonObject(config)) {
    throw new InvalidDataTypeError(
      `${where} needs a configuration {"unit": ..., "scale_factor": ...}`,
    );
  }
  const extra = Object.keys(config).filter((key) => key !== "unit" && key !== "scale_factor");
  if (extra.length > 0)
    throw new InvalidDataTypeError(
      `${where}: unexpected configuration field(s) ${extra.join(", ")}`,
    );
  const unit = parseDateTimeUnit(config.unit, where);
  return new DateTimeType(kind, unit, parseScaleFactor(config.scale_factor, where));
}
