import { formatValue } from "@z/errors";
import { MetadataError, MetadataLimitError } from "./errors.js";
import type { JsonObject, JsonValue } from "./json.js";
import { metadataLimits } from "./limits.js";

/**
 * Levels of a metadata document above the values a user gives (attributes, codec
 * configurations): `consolidated_metadata.metadata["a/b"].attributes` in a root `zarr.json`
 * takes five. User values get `maxJsonDepth` minus this, so whatever is written reads back,
 * consolidated or not.
 */
export const USER_JSON_DEPTH_MARGIN = 8;

/** A path inside a value as JavaScript would write it: `attributes.a["b c"][3]`. */
function child(path: string, key: string | number): string {
  if (typeof key === "number") return `${path}[${key}]`;
  return /^[A-Za-z_$][\w$]*$/.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;
}

function describeKind(value: unknown): string {
  if (value === undefined) return "undefined";
  if (typeof value === "function") return `a function (${formatValue(value)})`;
  if (typeof value === "symbol") return `a symbol (${formatValue(value)})`;
  const proto = Object.getPrototypeOf(value);
  const name = (proto?.constructor as { name?: string } | undefined)?.name || "object";
  return `a ${name} (${formatValue(value)})`;
}

/**
 * Checks that a value a user gives (attributes, a codec configuration) is plain JSON that can
 * be written and read back: null, booleans, strings, numbers (NaN and ±Infinity are written as
 * `"NaN"`, `"Infinity"`, `"-Infinity"`, as metadata does), bigints (exact integer digits, as
 * `parseJson` reads them), arrays and plain objects; no cycles, no nesting deeper than
 * `maxJsonDepth` less {@link USER_JSON_DEPTH_MARGIN}, at most `maxDocumentBytes` once written.
 * The work is bounded by those limits, whatever the value (shared sub-objects count each time
 * they appear, as they would be written).
 * @param where the name of the value in messages, e.g. `attributes`
 * @throws MetadataError naming the path inside the value and what is wrong there;
 *   MetadataLimitError past a limit
 */
export function checkJsonValue(value: unknown, where: string): asserts value is JsonValue {
  const limits = metadataLimits();
  const maxDepth = Math.max(1, limits.maxJsonDepth - USER_JSON_DEPTH_MARGIN);
  const ancestors = new Set<object>();
  // Sub-objects already checked, with their written size and height: a value that shares
  // them (a list holding the same list twice, nested sixty times) is checked in linear time,
  // while its size still counts every repetition, as writing it would.
  const checked = new Map<object, { size: number; height: number }>();
  let total = 0;
  const grow = (bytes: number): void => {
    total += bytes;
    if (total > limits.maxDocumentBytes) {
      throw new MetadataLimitError(
        `${where} would take more than ${limits.maxDocumentBytes} bytes written as JSON (maxDocumentBytes)`,
        "maxDocumentBytes",
        limits.maxDocumentBytes,
        total,
      );
    }
  };
  const tooDeep = (path: string, depth: number): MetadataLimitError =>
    new MetadataLimitError(
      `${path} is nested more than ${maxDepth} levels deep inside ${where} (maxJsonDepth less ${USER_JSON_DEPTH_MARGIN} for the enclosing document)`,
      "maxJsonDepth",
      maxDepth,
      depth,
    );
  /** Checks `v` at `depth`; returns its height (0 for a scalar). */
  const visit = (v: unknown, path: string, depth: number): number => {
    // Every value takes at least two bytes written: itself and a separator.
    if (v === null || typeof v === "boolean" || typeof v === "number" || typeof v === "bigint") {
      grow(2);
      return 0;
    }
    if (typeof v === "string") {
      grow(2 + v.length);
      return 0;
    }
    const isArray = Array.isArray(v);
    const proto = typeof v === "object" ? Object.getPrototypeOf(v) : undefined;
    if (!isArray && proto !== Object.prototype && proto !== null) {
      throw new MetadataError(
        `${path} is ${describeKind(v)}, which JSON cannot hold; use null, a boolean, a number, a string, a list or a plain object`,
      );
    }
    const object = v as object;
    if (ancestors.has(object)) throw new MetadataError(`${path} refers back to itself (a cycle)`);
    const seen = checked.get(object);
    if (seen) {
      if (depth + seen.height > maxDepth) throw tooDeep(path, depth + seen.height);
      grow(seen.size);
      return seen.height;
    }
    if (depth >= maxDepth) throw tooDeep(path, depth + 1);
    const before = total;
    let height = 0;
    ancestors.add(object);
    grow(2);
    if (isArray) {
      const list = v as unknown[];
      for (let i = 0; i < list.length; i++)
        height = Math.max(height, visit(list[i], child(path, i), depth + 1));
    } else {
      for (const key of Object.keys(object)) {
        grow(3 + key.length);
        const item = (object as Record<string, unknown>)[key];
        height = Math.max(height, visit(item, child(path, key), depth + 1));
      }
    }
    ancestors.delete(object);
    checked.set(object, { size: total - before, height: height + 1 });
    return height + 1;
  };
  visit(value, where, 0);
}

/**
 * Checks attributes a user gives: a plain object (not an array, a string or a class instance)
 * holding JSON values only (see {@link checkJsonValue}).
 * @param where names them in messages, e.g. `/a/b attributes`
 * @throws MetadataError naming the path inside the attributes
 */
export function checkAttributes(value: unknown, where = "attributes"): JsonObject {
  const proto = typeof value === "object" && value !== null ? Object.getPrototypeOf(value) : 0;
  if (Array.isArray(value) || (proto !== Object.prototype && proto !== null)) {
    throw new MetadataError(
      `${where} must be a plain object of JSON values, got ${formatValue(value, { bigint: "suffix" })}`,
    );
  }
  checkJsonValue(value, where);
  return value as JsonObject;
}
