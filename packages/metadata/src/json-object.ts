// The plain-object check every metadata parser uses, kept out of json-write.ts so that reading
// metadata does not load the JSON writer.
import type { JsonObject } from "./json.js";

/** Whether a JSON value is a plain object (not null, not an array). */
export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
