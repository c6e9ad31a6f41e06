import { formatValue } from "@z/errors";
import { MetadataError } from "./errors.js";
import type { JsonObject, JsonValue } from "./json.js";
import { isJsonObject } from "./json-object.js";

/**
 * A v3 extension point value in its normalised form: a name, a configuration object and
 * whether readers must understand it (`must_understand`, true unless stated otherwise).
 */
export interface NamedConfig {
  /** The registered name of the extension. */
  name: string;
  /** Its configuration (an empty object when the metadata had none). */
  configuration: JsonObject;
  /** False only when the metadata says readers may ignore it. */
  mustUnderstand: boolean;
}

/**
 * Normalises a v3 extension point value, which may be a bare name (`"gzip"`) or an object
 * `{name, configuration?, must_understand?}`.
 * @throws MetadataError naming `where` when it is neither
 */
export function parseNamedConfig(json: JsonValue, where: string): NamedConfig {
  if (typeof json === "string") return { name: json, configuration: {}, mustUnderstand: true };
  if (!isJsonObject(json) || typeof json.name !== "string") {
    throw new MetadataError(
      `${where} must be a name or an object with a string "name", got ${formatValue(json)}`,
    );
  }
  const configuration = json.configuration ?? {};
  if (!isJsonObject(configuration)) {
    throw new MetadataError(`${where} "${json.name}" has a configuration that is not an object`);
  }
  const mustUnderstand = json.must_understand ?? true;
  if (typeof mustUnderstand !== "boolean") {
    throw new MetadataError(`${where} "${json.name}" has a must_understand that is not a boolean`);
  }
  return { name: json.name, configuration, mustUnderstand };
}
