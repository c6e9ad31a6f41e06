// The options parser of cast_value: private to the @z packages. cast-value.ts holds the public
// side, which the package entry re-exports whole.
import { formatValue } from "@z/errors";
import {
  type DataType,
  isJsonObject,
  type JsonObject,
  type JsonValue,
  resolveDataTypeV3,
} from "@z/metadata";
import { CodecConfigError } from "../errors.js";
import { ROUNDING_MODES, type RoundingMode } from "./cast.js";
import type { CastValueOptions } from "./cast-value.js";

export const NAME = "cast_value";
const FIELDS = new Set(["data_type", "rounding", "out_of_range", "scalar_map"]);

/**
 * Parses a `cast_value` configuration.
 * @throws CodecConfigError
 */
export function parseCastValueOptions(configuration: JsonObject): CastValueOptions {
  const extra = Object.keys(configuration).filter((key) => !FIELDS.has(key));
  if (extra.length > 0) {
    throw new CodecConfigError(
      `${NAME}: unknown configuration field(s) ${extra.map((k) => `"${k}"`).join(", ")}; the spec makes metadata with other fields invalid`,
    );
  }
  const json = configuration.data_type;
  if (json === undefined)
    throw new CodecConfigError(`${NAME}: the configuration needs "data_type"`);
  let dataType: DataType;
  try {
    dataType = resolveDataTypeV3(json, `${NAME} "data_type"`);
  } catch (error) {
    throw new CodecConfigError(`${NAME}: unknown "data_type" ${formatValue(json)}`, {
      cause: error,
    });
  }
  const rounding = configuration.rounding;
  if (rounding !== undefined && !ROUNDING_MODES.includes(rounding as RoundingMode)) {
    throw new CodecConfigError(
      `${NAME}: "rounding" must be one of ${ROUNDING_MODES.map((m) => `"${m}"`).join(", ")}, got ${formatValue(rounding)}`,
    );
  }
  const outOfRange = configuration.out_of_range;
  if (outOfRange !== undefined && outOfRange !== "clamp" && outOfRange !== "wrap") {
    throw new CodecConfigError(
      `${NAME}: "out_of_range" must be "clamp" or "wrap", got ${formatValue(outOfRange)}`,
    );
  }
  return {
    dataType,
    rounding: rounding as RoundingMode | undefined,
    outOfRange: outOfRange as "clamp" | "wrap" | undefined,
    scalarMap: parseScalarMap(configuration.scalar_map),
  };
}

function parseScalarMap(json: JsonValue | undefined): CastValueOptions["scalarMap"] {
  if (json === undefined) return undefined;
  if (!isJsonObject(json)) {
    throw new CodecConfigError(
      `${NAME}: "scalar_map" must be an object with "encode" and/or "decode", got ${formatValue(json)}`,
    );
  }
  const map: NonNullable<CastValueOptions["scalarMap"]> = {};
  for (const [key, pairs] of Object.entries(json)) {
    if (key !== "encode" && key !== "decode") {
      throw new CodecConfigError(
        `${NAME}: "scalar_map" may only have "encode" and "decode", got "${key}"`,
      );
    }
    const valid =
      Array.isArray(pairs) && pairs.every((pair) => Array.isArray(pair) && pair.length === 2);
    if (!valid) {
      throw new CodecConfigError(
        `${NAME}: "scalar_map.${key}" must be an array of [input, output] pairs, got ${formatValue(pairs)}`,
      );
    }
    map[key] = pairs as [JsonValue, JsonValue][];
  }
  return map;
}
