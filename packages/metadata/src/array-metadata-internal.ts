// The parsers' extra fields and error locations: private to the @z packages. array-metadata.ts holds the public side, which the
// package entry re-exports whole.
import { locateError } from "@z/errors";
import { UnsupportedExtensionError } from "./errors.js";
import type { JsonObject } from "./json.js";
import { isJsonObject } from "./json-object.js";

/**
 * Collects the top-level fields the spec does not define; each must be an object with
 * `must_understand: false`, or the node cannot be opened.
 */
export function collectExtraFields(doc: JsonObject, known: Set<string>, where: string): JsonObject {
  const extra: JsonObject = {};
  for (const [key, value] of Object.entries(doc)) {
    if (known.has(key)) continue;
    if (isJsonObject(value) && value.must_understand === false) {
      extra[key] = value;
      continue;
    }
    throw new UnsupportedExtensionError(
      `${where} has the field "${key}", which this library does not understand and which is not marked "must_understand": false`,
    );
  }
  return extra;
}

/**
 * Records on an error the document it came from (its message starts with it), unless the
 * message names the document already.
 */
export function withWhere(error: unknown, where: string): unknown {
  if (error instanceof Error && error.message.includes(where)) return error;
  return locateError(error, where);
}
