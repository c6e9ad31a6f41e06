import { formatValue } from "@z/errors";
import type { JsonValue } from "./json.js";

/** A short description of a JSON value for error messages. */
export function describe(json: JsonValue | undefined): string {
  if (json === undefined) return "nothing";
  if (json === null) return "null";
  if (Array.isArray(json)) return "a list";
  if (typeof json === "object") return "an object";
  return `${typeof json} ${formatValue(json, { maxLength: 60 })}`;
}
